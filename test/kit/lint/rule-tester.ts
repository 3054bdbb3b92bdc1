// The project's own ESLint rules (exported by eslint.config.js) under ESLint's RuleTester, whose
// cases run as node:test tests. `at` makes a repository path absolute, as ESLint sees files.
import path from 'node:path';
import { describe, it } from 'node:test';
import { RuleTester, type Rule } from 'eslint';

// The config is plain JavaScript (ESLint loads it); a computed specifier keeps tsc from
// looking for its types.
const config = '../../../eslint.config.js';

/** The rule eslint.config.js exports as `name`. */
export async function projectRule(name: string): Promise<Rule.RuleModule> {
  const rule = ((await import(config)) as Record<string, Rule.RuleModule | undefined>)[name];
  if (!rule) throw new Error(`eslint.config.js exports no rule named ${name}`);
  return rule;
}

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const ruleTester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

const root = path.resolve(import.meta.dirname, '../../..');
export const at = (file: string): string => path.join(root, file);

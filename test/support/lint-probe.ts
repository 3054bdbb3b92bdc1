// The project's eslint.config.js run on probe files linted as text (nothing is written): what a
// rule reports for `code` as if it were the file at `file` (a path from the repository root).
// The type-aware rules are off: they need files the TypeScript project knows.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
});

/** `rule: message` of every report of one of `rules` for `code` linted as `file`. */
export async function probeReports(file: string, code: string, rules: readonly string[]): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  assert.ok(result);
  return result.messages
    .filter((m) => m.ruleId !== null && rules.includes(m.ruleId))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

// Compiles an Apache LogFormat string once into an array of closures; a line is then their
// concatenation. No eval / new Function: the format may come from configuration.
import { makeToken, type Token } from './tokens.ts';
import type { AccessRecord } from './record.ts';

export const NAMED_FORMATS: Readonly<Record<string, string>> = {
  common: '%h %l %u %t "%r" %>s %b',
  combined: '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"',
};

export type LineFormatter = (r: AccessRecord) => string;

// %[!][status,…][<|>]{arg}letter — Apache's directive grammar (mod_log_config parse_log_item).
const DIRECTIVE = /^%(!?)((?:\d{3},?)*)([<>]?)(?:\{([^}]*)\})?([a-zA-Z%])/;

function conditional(token: Token, statuses: readonly number[], negate: boolean): Token {
  return (r) => (statuses.includes(r.status) !== negate ? token(r) : '-');
}

/** Compiles `common`, `combined` or a LogFormat string; throws on unknown directives. */
export function compileLogFormat(format: string): LineFormatter {
  const spec = NAMED_FORMATS[format] ?? format;
  const parts: Token[] = [];
  let literal = '';
  let i = 0;
  while (i < spec.length) {
    const c = spec[i]!;
    if (c !== '%') {
      literal += c;
      i++;
      continue;
    }
    const m = DIRECTIVE.exec(spec.slice(i));
    if (!m) throw new Error(`LogFormat: cannot parse directive at "${spec.slice(i, i + 12)}"`);
    const [whole, bang, statusList, angle, arg, letter] = m;
    i += whole.length;
    if (letter === '%') {
      literal += '%';
      continue;
    }
    if (literal) {
      const text = literal;
      parts.push(() => text);
      literal = '';
    }
    let token = makeToken(letter!, arg, angle === '>');
    const statuses = (statusList ?? '').split(',').filter(Boolean).map(Number);
    if (statuses.length) token = conditional(token, statuses, bang === '!');
    parts.push(token);
  }
  if (literal) {
    const text = literal;
    parts.push(() => text);
  }
  const n = parts.length;
  return (r) => {
    let line = '';
    for (let k = 0; k < n; k++) line += parts[k]!(r);
    return line;
  };
}

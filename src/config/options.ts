// What a row of the configuration table (table.ts) is, and the parsers its rows use.
import path from 'node:path';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The options other defaults are computed from; each has a plain default of its own. */
export interface Basics {
  readonly port: number;
  readonly dataDir: string;
  readonly logDir: string;
}

export interface OptionSpec<T> {
  readonly env: string;
  readonly flag: string;
  readonly description: string;
  /** The default, written as a user would set it and parsed like their input. */
  readonly fallback?: string;
  /** A default computed from the basics (`$SHELFMARK_LOG_DIR/access.log`), when there is no plain one. */
  readonly derive?: (basics: Basics) => T;
  parse(raw: string): Parsed<T>;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

export const text: (s: string) => Parsed<string> = (s) => ok(s);

/** An e-mail address as OAI-PMH's schema takes one (`\S+@(\S+\.)+\S+`: a dotted domain). */
export function email(s: string): Parsed<string> {
  return /^\S+@(\S+\.)+\S+$/.test(s)
    ? ok(s)
    : fail('must be an e-mail address with a dotted domain (name@example.org)');
}

/** A directory, made absolute against the working directory at start-up. */
export const directory: (s: string) => Parsed<string> = (s) => ok(path.resolve(s));

export function integer(min: number, max: number) {
  return (s: string): Parsed<number> => {
    if (!/^\d+$/.test(s)) return fail(`must be a whole number, got "${s}"`);
    const n = Number(s);
    return n >= min && n <= max ? ok(n) : fail(`must be between ${min} and ${max}, got ${n}`);
  };
}

export function boolean(s: string): Parsed<boolean> {
  const v = s.toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return ok(true);
  if (['0', 'false', 'off', 'no', ''].includes(v)) return ok(false);
  return fail(`must be 1/0, true/false, on/off or yes/no, got "${s}"`);
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (s: string): Parsed<T> =>
    (values as readonly string[]).includes(s)
      ? ok(s as T)
      : fail(`must be one of ${values.join(', ')}, got "${s}"`);
}

export function baseUrl(s: string): Parsed<string> {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return fail(`must be an absolute http(s) URL, got "${s}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail(`must use http or https, got "${s}"`);
  if (url.search || url.hash || url.username || url.password)
    return fail('must not carry a query, fragment or credentials');
  return ok(url.origin + url.pathname.replace(/\/+$/, ''));
}

/** Comma-separated origins (`https://app.example`, `http://localhost:5173`): scheme, host, port. */
export function originList(s: string): Parsed<string[]> {
  const items = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const isOrigin = (x: string) => {
    try {
      const url = new URL(x);
      return /^https?:$/.test(url.protocol) && url.origin === x;
    } catch {
      return false;
    }
  };
  const bad = items.filter((x) => !isOrigin(x));
  return bad.length
    ? fail(`not an origin (scheme://host[:port], nothing after): ${bad.join(', ')}`)
    : ok(items);
}

export function addressList(s: string): Parsed<string[]> {
  const items = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = items.filter((x) => !/^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(x));
  return bad.length ? fail(`not an address, CIDR range or keyword: ${bad.join(', ')}`) : ok(items);
}

// Configuration: read once by src/main.ts from the environment and command-line flags,
// validated with every problem listed, then passed to everything else.
import path from 'node:path';
import {
  addressList,
  baseUrl,
  boolean,
  integer,
  oneOf,
  text,
  type OptionSpec,
  type Parsed,
} from './options.ts';

export const LOG_LEVELS = ['emerg', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const OPTIONS = {
  port: {
    env: 'PORT',
    flag: 'port',
    description: 'TCP port to listen on',
    fallback: '3000',
    parse: integer(0, 65535),
  },
  host: {
    env: 'HOST',
    flag: 'host',
    description: 'address to listen on',
    fallback: '127.0.0.1',
    parse: text,
  },
  baseUrl: {
    env: 'SHELFMARK_BASE_URL',
    flag: 'base-url',
    description: 'public URL; a path (https://example.org/katalog) makes Shelfmark answer under it',
    fallback: undefined,
    parse: baseUrl,
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    flag: 'database-url',
    description: 'postgres://… for PostgreSQL; default: the SQLite file in the data directory',
    fallback: undefined,
    parse: text,
  },
  dataDir: {
    env: 'SHELFMARK_DATA_DIR',
    flag: 'data-dir',
    description: 'SQLite file and generated secret',
    fallback: './data',
    parse: text,
  },
  secret: {
    env: 'SHELFMARK_SECRET',
    flag: 'secret',
    description:
      'key for session cookies and CSRF tokens (≥ 32 characters); generated into the data directory when unset',
    fallback: undefined,
    parse: (s: string): Parsed<string> =>
      s.length >= 32 ? { ok: true, value: s } : { ok: false, error: 'must be at least 32 characters' },
  },
  logDir: {
    env: 'SHELFMARK_LOG_DIR',
    flag: 'log-dir',
    description: 'directory of access.log and error.log',
    fallback: './logs',
    parse: text,
  },
  accessLog: {
    env: 'SHELFMARK_ACCESS_LOG',
    flag: 'access-log',
    description: 'access log path; - for stdout; off for none',
    fallback: undefined,
    parse: text,
  },
  errorLog: {
    env: 'SHELFMARK_ERROR_LOG',
    flag: 'error-log',
    description: 'error log path; - for stderr',
    fallback: undefined,
    parse: text,
  },
  accessLogFormat: {
    env: 'SHELFMARK_ACCESS_LOG_FORMAT',
    flag: 'access-log-format',
    description: 'combined, common, or an Apache LogFormat string',
    fallback: 'combined',
    parse: text,
  },
  logLevel: {
    env: 'SHELFMARK_LOG_LEVEL',
    flag: 'log-level',
    description: 'error-log LogLevel',
    fallback: 'warn',
    parse: oneOf(LOG_LEVELS),
  },
  displayErrors: {
    env: 'SHELFMARK_DISPLAY_ERRORS',
    flag: 'display-errors',
    description: 'show error details in 500 responses (development only)',
    fallback: '0',
    parse: boolean,
  },
  trustProxy: {
    env: 'SHELFMARK_TRUST_PROXY',
    flag: 'trust-proxy',
    description: 'comma-separated proxy addresses/CIDRs whose X-Forwarded-* headers are believed',
    fallback: '',
    parse: addressList,
  },
  workers: {
    env: 'SHELFMARK_WORKERS',
    flag: 'workers',
    description: 'worker processes (0 = serve in the main process)',
    fallback: '1',
    parse: integer(0, 64),
  },
  requirePreconditions: {
    env: 'SHELFMARK_REQUIRE_PRECONDITIONS',
    flag: 'require-preconditions',
    description: 'PUT/DELETE without If-Match → 428',
    fallback: '0',
    parse: boolean,
  },
  demo: {
    env: 'SHELFMARK_DEMO',
    flag: 'demo',
    description: 'load demo data into an empty database (--no-demo to skip)',
    fallback: '1',
    parse: boolean,
  },
} satisfies Record<string, OptionSpec<unknown>>;

type Options = typeof OPTIONS;
type ValueOf<K extends keyof Options> = Options[K] extends OptionSpec<infer T> ? T : never;
export type RawConfig = { [K in keyof Options]: ValueOf<K> | undefined };

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  secret: string | undefined;
  logDir: string;
  accessLog: string;
  errorLog: string;
  accessLogFormat: string;
  logLevel: LogLevel;
  displayErrors: boolean;
  trustProxy: string[];
  workers: number;
  requirePreconditions: boolean;
  demo: boolean;
}

export type Flags = Readonly<Record<string, string | boolean>>;

/** Parses `--name value`, `--name=value`, `--flag` and `--no-flag`; positional words are returned apart. */
export function parseFlags(argv: readonly string[]): {
  flags: Record<string, string | boolean>;
  positional: string[];
} {
  const flags: Record<string, string | boolean> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (arg.startsWith('--no-')) flags[arg.slice(5)] = false;
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) flags[arg.slice(2)] = argv[++i]!;
    else flags[arg.slice(2)] = true;
  }
  return { flags, positional };
}

/** Flags win over environment variables, which win over defaults. Returns every problem at once. */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: Flags = {},
): { ok: true; config: Config } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(OPTIONS) as [string, OptionSpec<unknown>][]) {
    const flag = flags[spec.flag];
    const value =
      flag === undefined
        ? (env[spec.env] ?? spec.fallback)
        : flag === true
          ? '1'
          : flag === false
            ? '0'
            : flag;
    if (value === undefined) continue;
    const parsed = spec.parse(value);
    if (parsed.ok) raw[key] = parsed.value;
    else errors.push(`${spec.env} (--${spec.flag}): ${parsed.error}`);
  }
  const known = new Set(Object.values(OPTIONS).map((o) => o.flag));
  for (const name of Object.keys(flags)) if (!known.has(name)) errors.push(`unknown option --${name}`);
  if (errors.length) return { ok: false, errors };
  const r = raw as RawConfig;
  const port = r.port ?? 3000;
  const dataDir = path.resolve(r.dataDir ?? './data');
  const logDir = path.resolve(r.logDir ?? './logs');
  return {
    ok: true,
    config: {
      port,
      host: r.host ?? '127.0.0.1',
      baseUrl: r.baseUrl ?? `http://localhost:${port}`,
      databaseUrl: r.databaseUrl ?? path.join(dataDir, 'shelfmark.db'),
      dataDir,
      secret: r.secret,
      logDir,
      accessLog: r.accessLog ?? path.join(logDir, 'access.log'),
      errorLog: r.errorLog ?? path.join(logDir, 'error.log'),
      accessLogFormat: r.accessLogFormat ?? 'combined',
      logLevel: r.logLevel ?? 'warn',
      displayErrors: r.displayErrors ?? false,
      trustProxy: r.trustProxy ?? [],
      workers: r.workers ?? 1,
      requirePreconditions: r.requirePreconditions ?? false,
      demo: r.demo ?? true,
    },
  };
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Origins whose unsafe requests pass the CSRF origin check: the public base URL's origin, and
 * when that is a loopback name, its loopback aliases on the same port too (a developer who
 * opens http://127.0.0.1:3000 instead of http://localhost:3000 can still use the forms).
 */
export function acceptedOrigins(baseUrl: string): string[] {
  const base = new URL(baseUrl);
  if (!LOOPBACK_HOSTS.includes(base.hostname)) return [base.origin];
  const port = base.port ? `:${base.port}` : '';
  return LOOPBACK_HOSTS.map((host) => `${base.protocol}//${host}${port}`);
}

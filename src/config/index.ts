// Configuration: read once by src/main.ts from the environment and command-line flags,
// validated with every problem listed, then passed to everything else. The options
// themselves, their defaults and the Config type live in one table (table.ts).
import { OPTIONS, type Config } from './table.ts';
import type { Basics, OptionSpec } from './options.ts';

export { OPTIONS, LOG_LEVELS, type Config, type LogLevel } from './table.ts';

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
  const values: Record<string, unknown> = {};
  const derived: [string, NonNullable<OptionSpec<unknown>['derive']>][] = [];
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
    if (value === undefined) {
      if (spec.derive) derived.push([key, spec.derive]);
      else values[key] = undefined; // an option without a default, such as the secret
      continue;
    }
    const parsed = spec.parse(value);
    if (parsed.ok) values[key] = parsed.value;
    else errors.push(`${spec.env} (--${spec.flag}): ${parsed.error}`);
  }
  const known = new Set(Object.values(OPTIONS).map((o) => o.flag));
  for (const name of Object.keys(flags)) if (!known.has(name)) errors.push(`unknown option --${name}`);
  if (errors.length) return { ok: false, errors };
  // Every option a default is derived from has a plain default of its own, so it is set here.
  const basics = values as unknown as Basics;
  for (const [key, derive] of derived) values[key] = derive(basics);
  return { ok: true, config: values as Config };
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

/**
 * Settings that work but need an operator's eye, as `warn` entries at start (docs/errors.md,
 * "Warnings"): displayErrors shows source code and stack traces to whoever causes a 500, which
 * is meant for a developer's own machine, not for a public base URL.
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const host = new URL(config.baseUrl).hostname;
  if (config.displayErrors && !LOOPBACK_HOSTS.includes(host) && !host.endsWith('.localhost'))
    warnings.push(
      `displayErrors is on while the base URL ${config.baseUrl} is not on this machine: ` +
        'every 500 response shows its stack trace and source to the client',
    );
  return warnings;
}

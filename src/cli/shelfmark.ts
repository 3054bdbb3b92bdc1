#!/usr/bin/env node
// The `shelfmark` command. The only place (with src/main.ts) that touches process.env and argv.
// The commands are loaded when run: `serve` loads the application itself (load-app.ts), so that
// a syntax error in it is logged with its file and line instead of stopping this script.
import { loadConfig, parseFlags, type Config } from '../config/index.ts';
import { describeError } from '../logging/index.ts';
import { checkConfig } from './check-config.ts';

const USAGE = `usage: shelfmark <command> [options]

commands:
  serve                 migrate, load the demo catalogue into an empty database, and serve
                        (--workers N, --port, --host, --base-url, --no-demo, … see README)
  migrate               bring the database schema up to date
  demo --works N [--output FILE]
                        add N synthetic works (and N/4 persons) for benchmarks, through the
                        import; with --output write them as JSON Lines for import instead
  import FILE|- [--format jsonl|csv|marcxml] [--max-record-bytes N]
                        add or update persons, works, copies and accounts from JSON Lines,
                        CSV or MARCXML; lines not imported (bad UTF-8, longer than N bytes,
                        default 1 MiB, …) are listed on stderr as FILE:LINE: reason
  export [--format jsonl|csv] [--output FILE] [--accounts]
                        write the catalogue (accounts only with --accounts; never passwords)
  notices               plan and send the e-mail notices due now, once (for a timer)
  user add <username> --person <slug> [--role staff|member] [--password-stdin]
  user passwd <username> [--password-stdin]
  user role <username> staff|member
  user remove <username>
                        manage accounts (the password is prompted for, never echoed)
  help                  this text
`;

type Command = (
  config: Config,
  flags: Record<string, string | boolean>,
  positional: readonly string[],
) => Promise<number>;

const COMMANDS: Record<string, { load: () => Promise<Command>; extraFlags: readonly string[] }> = {
  serve: { load: async () => (await import('./serve.ts')).serveCommand, extraFlags: [] },
  migrate: { load: async () => (await import('./database.ts')).migrateCommand, extraFlags: [] },
  demo: { load: async () => (await import('./database.ts')).demoCommand, extraFlags: ['works', 'output'] },
  import: {
    load: async () => (await import('./transfer.ts')).importCommand,
    extraFlags: ['format', 'max-record-bytes'],
  },
  export: {
    load: async () => (await import('./transfer.ts')).exportCommand,
    extraFlags: ['format', 'output', 'accounts'],
  },
  notices: { load: async () => (await import('./notices.ts')).noticesCommand, extraFlags: [] },
  user: {
    load: async () => (await import('./user.ts')).userCommand,
    extraFlags: ['person', 'role', 'password-stdin'],
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv);
  const name = positional[0] ?? 'help';
  const command = COMMANDS[name];
  if (!command || name === 'help' || flags.help) {
    process.stdout.write(USAGE);
    return command || name === 'help' ? 0 : 2;
  }
  const configFlags = Object.fromEntries(
    Object.entries(flags).filter(([k]) => !command.extraFlags.includes(k)),
  );
  const loaded = loadConfig(process.env, configFlags);
  const problems = loaded.ok ? checkConfig(loaded.config) : loaded.errors;
  if (!loaded.ok || problems.length) {
    process.stderr.write(`shelfmark: the configuration has ${problems.length} problem(s):\n`);
    for (const p of problems) process.stderr.write(`  - ${p}\n`);
    return 2;
  }
  return (await command.load())(loaded.config, flags, positional);
}

/** The message; for code that failed to load, with its class, file and line (describeError). */
function failure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (!(err instanceof SyntaxError) && (err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND')
    return err.message;
  const d = describeError(err);
  return `${d.className}: ${d.message}${d.file === undefined ? '' : ` in ${d.file} on line ${d.line}`}`;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`shelfmark: ${failure(err)}\n`);
    process.exitCode = 1;
  },
);

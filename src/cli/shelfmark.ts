#!/usr/bin/env node
// The `shelfmark` command. The only place (with src/main.ts) that touches process.env and argv.
import { loadConfig, parseFlags, type Config } from '../config/index.ts';
import { checkConfig } from '../main.ts';
import { serveCommand } from './serve.ts';
import { demoCommand, migrateCommand } from './database.ts';
import { userCommand } from './user.ts';

const USAGE = `usage: shelfmark <command> [options]

commands:
  serve                 migrate, load the demo catalogue into an empty database, and serve
                        (--workers N, --port, --host, --base-url, --no-demo, … see README)
  migrate               bring the database schema up to date
  demo --works N        add N synthetic works (and N/4 persons) for benchmarks
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

const COMMANDS: Record<string, { run: Command; extraFlags: readonly string[] }> = {
  serve: { run: serveCommand, extraFlags: [] },
  migrate: { run: migrateCommand, extraFlags: [] },
  demo: { run: demoCommand, extraFlags: ['works'] },
  user: { run: userCommand, extraFlags: ['person', 'role', 'password-stdin'] },
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
  return command.run(loaded.config, flags, positional);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`shelfmark: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

// `npm test`: finds every *.test.ts under src/, test/ and bench/, runs them with Node's own test
// runner (same Node binary, one process per file, two at a time for a 2-core machine) and
// closes with what was skipped and why. In CI (CI=true) a missing tool fails the run.
//
//   npm test                          every test
//   npm test -- src/http              files under a folder (or a single file)
//   npm test -- negotiation           files whose path contains the text
//   npm test -- --test-name-pattern=etag   options starting with -- go to `node --test`
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findTestFiles, selectTestFiles } from './support/test-files.ts';
import { inCi, missingRequirement, requirementNames } from './support/requirements.ts';
import type { RunSummary } from './support/summary-reporter.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const nodeOptions = args.filter((a) => a.startsWith('--'));
const filters = args.filter((a) => !a.startsWith('--'));

const all = findTestFiles(root, ['src', 'test', 'bench']);
const selection = selectTestFiles(root, all, filters, process.cwd());
for (const filter of selection.unmatched) console.error(`No test file matches "${filter}".`);
if (selection.unmatched.length > 0) process.exit(1);
const files = selection.files;

if (files.length === 0) {
  console.log('No test files found under src/ or test/.\nshelfmark: 0 passed, 0 failed');
  process.exit(0);
}

const workDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-test-run-'));
const summaryFile = path.join(workDir, 'summary.json');
const reporter = pathToFileURL(path.join(root, 'test/support/summary-reporter.ts')).href;
const nodeArgs = [
  '--test',
  '--test-concurrency=2',
  // A hung test must not hang CI; no test asserts on time. No --test-force-exit: beside a
  // second reporter it cut files short (a file reported 18 of its 38 tests, and the run was
  // green); a file that leaks a handle is stopped by the deadline below, which names it.
  '--test-timeout=120000',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${reporter}`,
  `--test-reporter-destination=${summaryFile}`,
  ...nodeOptions,
  ...files.map((f) => path.relative(root, f)),
];

// --test-timeout cannot stop a test that blocks the event loop, so the whole run has a
// deadline too (SHELFMARK_TEST_DEADLINE_MINUTES, default 24: CI must stay under 30).
const deadlineMinutes = Number(process.env.SHELFMARK_TEST_DEADLINE_MINUTES) || 24;

console.log(`Running ${files.length} test file(s) with Node ${process.version}\n`);
const exitCode = await new Promise<number>((resolve) => {
  // Its own process group, so that on the deadline it goes down with every test process.
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
    detached: true,
  });
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Being a group of its own, the runner no longer gets the terminal's Ctrl-C: pass it on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => killGroup(signal));
  const deadline = setTimeout(() => {
    const stuck = child.pid ? runningTestFiles(child.pid) : [];
    console.error(`\nThe test run passed its deadline of ${deadlineMinutes} min and was killed.`);
    console.error(`Still running: ${stuck.length > 0 ? stuck.join(', ') : 'unknown'}`);
    killGroup('SIGKILL');
  }, deadlineMinutes * 60_000);
  child.on('error', (error) => {
    console.error(`Could not start ${process.execPath}: ${error.message}`);
    resolve(1);
  });
  child.on('exit', (code, signal) => {
    clearTimeout(deadline);
    resolve(code ?? (signal ? 1 : 0));
  });
});

const summary = readSummary(summaryFile);
rmSync(workDir, { recursive: true, force: true });
printSlowest(summary);
const ciFailures = printSkips(summary);
const counts = summary
  ? `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`
  : 'no summary (the test runner did not finish)';
console.log(`\nshelfmark: ${counts}`);
if (exitCode !== 0) console.log(`node --test exited with code ${exitCode}`);
process.exit(exitCode !== 0 ? exitCode : ciFailures > 0 || !summary ? 1 : 0);

/** The test files that child processes of `pid` are running (Linux /proc), for the deadline message. */
function runningTestFiles(pid: number): string[] {
  const files: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return files; // no /proc: not Linux
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== pid) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const file = args.at(-1);
      if (file?.endsWith('.test.ts')) files.push(file);
    } catch {
      // the process ended meanwhile
    }
  }
  return files;
}

function readSummary(file: string): RunSummary | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  } catch {
    return undefined;
  }
}

/** Prints the files that took longest, so a run that creeps toward its deadline says why. */
function printSlowest(summary: RunSummary | undefined): void {
  const slowest = Object.entries(summary?.fileSeconds ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15);
  if (slowest.length < 2) return;
  console.log('\nSlowest files (seconds in their top-level tests):');
  for (const [file, seconds] of slowest) console.log(`  ${seconds.toFixed(1).padStart(6)}  ${file}`);
}

/** Prints skipped tests grouped by reason and, in CI, every missing tool; returns how many must fail CI. */
function printSkips(summary: RunSummary | undefined): number {
  const byReason = new Map<string, { tests: number; files: Set<string> }>();
  for (const skip of summary?.skips ?? []) {
    const group = byReason.get(skip.reason) ?? { tests: 0, files: new Set<string>() };
    group.tests += 1;
    group.files.add(skip.file);
    byReason.set(skip.reason, group);
  }
  const missing = requirementNames.map(missingRequirement).filter((m): m is string => m !== undefined);
  if (byReason.size === 0 && missing.length === 0) return 0;

  console.log('\nSkipped:');
  for (const [reason, group] of byReason) {
    console.log(`  ${reason} (${group.tests} test(s) in ${group.files.size} file(s))`);
  }
  if (!inCi()) {
    for (const message of missing.filter((m) => !byReason.has(m))) {
      console.log(`  ${message} (no selected test needs it)`);
    }
    return 0;
  }
  for (const message of missing) console.log(`  CI=true, so this fails the run: ${message}`);
  return missing.length;
}

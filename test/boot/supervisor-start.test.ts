// Code that cannot be loaded, under the supervisor: the worker that tries writes one entry with
// the file, line and message, exits CANNOT_START, and the supervisor tries again after 1 s,
// 2 s, 4 s … — while the workers that run keep serving — until the file is fixed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, test } from 'node:test';
import { freePort } from '../support/process.ts';
import { readLines, serve, tempDir, until } from '../faults/support.ts';
import { BROKEN_HOME_INDEX, copyApp, HOME_INDEX, ROOT } from './app-copy.ts';

const NODE = path.join(ROOT, 'node_modules/.bin/node');
const copy = copyApp();
after(() => copy.remove());

const cannotStart = (lines: string[], file: string) =>
  lines.filter(
    (l) =>
      l.includes('[shelfmark:crit]') &&
      l.includes(`Cannot start: SyntaxError: Expression expected in ${file} on line 2\\nStack trace:`),
  );
/** The delays (s) of the supervisor's "starting the next one in N s" entries, in order. */
const delays = (lines: string[], what: RegExp) =>
  lines.map((l) => what.exec(l)).flatMap((m) => (m ? [Number(m[1])] : []));

async function status(base: string): Promise<number> {
  return (await fetch(`${base}/`, { headers: { connection: 'close' } })).status;
}

test('a graceful restart into broken code: logged with file and line, retried with back-off, old worker serves on', async (t) => {
  const s = await serve({ workers: 1, shell: `exec ${NODE} ${copy.file('src/cli/shelfmark.ts')} serve` });
  t.after(() => s.stop());
  assert.equal(await status(s.base), 200);
  const broken = copy.write(HOME_INDEX, BROKEN_HOME_INDEX);
  process.kill(s.pid, 'SIGUSR1');
  const retry =
    /\[mpm_cluster:error\] .*could not start the application \(\d+ in a row\): starting the next one in (\d+) s$/;
  assert.ok(
    await until(() => delays(readLines(s.errorLog), retry).length >= 3, 60_000),
    readLines(s.errorLog).join('\n'),
  );
  const log = readLines(s.errorLog);
  assert.ok(cannotStart(log, broken).length >= 3, log.join('\n'));
  // Each attempt waits twice as long as the one before: no loop.
  assert.deepEqual(delays(log, retry).slice(0, 3), [1, 2, 4]);
  // The worker that was running is never retired for one that did not start.
  assert.equal(await status(s.base), 200);
  copy.restore(HOME_INDEX);
  assert.ok(await until(() => s.ready().length >= 2, 60_000), s.output());
  assert.equal(await status(s.base), 200);
});

test('a start with broken code: nothing listens, the supervisor retries the preparation until the file is fixed', async (t) => {
  const broken = copy.write(HOME_INDEX, BROKEN_HOME_INDEX);
  const dir = tempDir('shelfmark-boot-');
  const port = await freePort();
  const errorLog = path.join(dir, 'logs', 'error.log');
  const child = spawn(NODE, [copy.file('src/cli/shelfmark.ts'), 'serve', '--workers', '2'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      SHELFMARK_DATA_DIR: path.join(dir, 'data'),
      SHELFMARK_LOG_DIR: path.join(dir, 'logs'),
      SHELFMARK_SECRET: 'boot-tests-secret-0123456789abcdefghijklmn',
    },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const retry =
    /\[mpm_cluster:error\] .*the application could not be prepared \(exit status 78\): trying again in (\d+) s$/;
  assert.ok(await until(() => delays(readLines(errorLog), retry).length >= 2, 60_000), output);
  assert.ok(cannotStart(readLines(errorLog), broken).length >= 2, readLines(errorLog).join('\n'));
  assert.deepEqual(delays(readLines(errorLog), retry).slice(0, 2), [1, 2]);
  // Whoever started it sees why on stderr.
  assert.match(output, new RegExp(`cannot start: SyntaxError: Expression expected in ${broken} on line 2`));
  assert.equal(child.exitCode, null, 'the supervisor keeps running');
  copy.restore(HOME_INDEX);
  const ready = /Shelfmark is serving \S+ \(listening on \S+, worker \d+\)/g;
  assert.ok(await until(() => [...output.matchAll(ready)].length >= 2, 90_000), output);
  assert.equal(await status(`http://127.0.0.1:${port}`), 200);
});

// kill -9 under load: every request that got a response has its access-log line. Apache writes
// a request's line when it ends; Shelfmark used to keep lines up to 50 ms in a batch, and a
// worker whose supervisor died exited without writing them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  loggedNumbers,
  readLines,
  serve,
  startLoad,
  until,
  alive,
  type Load,
  type Serve,
} from './support.ts';

function assertEveryAnswerLogged(s: Serve, load: Load): void {
  const { counts, malformed } = loggedNumbers(readLines(s.accessLog));
  assert.deepEqual(malformed, [], 'every line whole');
  const answered = load.outcomes.filter((o) => o.status !== undefined && !o.error);
  const missing = answered.filter((o) => !counts.has(o.n)).map((o) => `${o.n}: ${o.status}`);
  assert.deepEqual(
    missing,
    [],
    `${missing.length} of ${answered.length} answered requests missing from the log`,
  );
  const twice = [...counts].filter(([, c]) => c > 1).map(([n]) => n);
  assert.deepEqual(twice, [], 'no line twice');
  const hung = load.outcomes.filter((o) => o.error === 'timeout').map((o) => o.n);
  assert.deepEqual(hung, [], 'no request hung');
}

/** Kills `pids()` with SIGKILL as soon as the `after`-th answer arrives; resolves then. */
function killAfterAnswer(load: Load, after: number, pids: () => number[]): Promise<void> {
  const target = load.answered() + after;
  return new Promise((resolve) => {
    load.onAnswer = () => {
      if (load.answered() < target) return;
      load.onAnswer = () => {};
      // At once: the line is written before the answer's last bytes leave the server (the old
      // sink kept lines for up to 50 ms, and logged them after the answer had left).
      setImmediate(() => {
        for (const pid of pids()) process.kill(pid, 'SIGKILL');
        resolve();
      });
    };
  });
}

test('--workers 2: kill -9 of the workers, then of the supervisor, right after answers', async (t) => {
  const s = await serve({ workers: 2 });
  t.after(() => s.stop());
  const load = startLoad(s.port, { clients: 6, keepAlive: true, pauseOnErrorMs: 20 });
  try {
    const first = s.ready();
    await killAfterAnswer(load, 40, () => first);
    // Replacements start and serve.
    assert.ok(await until(() => s.ready().length >= 4, 90_000), s.output());
    await killAfterAnswer(load, 40, () => [s.pid]);
    // The workers finish what they hold and exit.
    assert.ok(await until(() => !s.ready().some(alive), 30_000), 'workers gone after the supervisor');
  } finally {
    await load.stop();
  }
  t.diagnostic(`${load.answered()} answered of ${load.outcomes.length} sent`);
  assertEveryAnswerLogged(s, load);
});

test('--workers 0: kill -9 of the server right after an answer', async (t) => {
  const s = await serve({ workers: 0 });
  t.after(() => s.stop());
  const load = startLoad(s.port, { clients: 6, keepAlive: true, pauseOnErrorMs: 20 });
  try {
    await killAfterAnswer(load, 60, () => [s.pid]);
    assert.equal(await s.exited(10_000), 'SIGKILL');
  } finally {
    await load.stop();
  }
  assertEveryAnswerLogged(s, load);
});

// Another process holds the SQLite write lock (BEGIN IMMEDIATE in a node:sqlite child) while a
// real server (`shelfmark serve`, --workers 0 and 2) gets writes. A write waiting for the lock
// must not hold up anything else: static files and reads are answered while it waits (before
// it is answered: with busy_timeout the worker's event loop stood still). A lock held longer
// than a write waits answers 503 SHELFMARK_DATABASE_BUSY with Retry-After in the negotiated
// format, for persons and works alike; once the lock is gone, writes succeed again.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  alive,
  ask,
  childDeaths,
  errorLogSummary,
  FORMATS,
  newPerson,
  nonCombined,
  problemOf503,
  readLines,
  serveShelfmark,
  tempDir,
  until,
  type Answer,
} from './database-support.ts';

const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('PRAGMA busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
// Exits once released: an open stdin would keep it alive, and release() waits for the exit.
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\\n', () => process.exit(0));
});
`;

/** Another process holding the write lock of `file` until release() (or the test's end). */
async function holdWriteLock(
  file: string,
  t: Pick<TestContext, 'after'>,
): Promise<{ release(): Promise<void>; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', HOLDER, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  process.once('exit', () => child.kill('SIGKILL'));
  assert.ok(await until(() => out.includes('locked') || child.exitCode !== null, 20_000), 'lock taken');
  assert.ok(out.includes('locked'), 'the lock holder started');
  return {
    child,
    async release() {
      child.stdin!.write('go\n');
      assert.ok(await until(() => child.exitCode !== null, 20_000), 'the lock holder released and exited');
      assert.ok(out.includes('released'), 'the lock holder committed');
    },
  };
}

/** Sends a request and records when (in the order of all answers) it was answered. */
function tracked(order: string[], name: string, answer: Promise<Answer>): Promise<Answer> {
  return answer.then((a) => {
    order.push(name);
    return a;
  });
}

for (const workers of [0, 2]) {
  test(`--workers ${workers}: another process holds the SQLite write lock`, async (t) => {
    const dir = tempDir('sm-sqlite-lock-');
    const db = path.join(dir, 'data', 'shelfmark.db');
    const s = await serveShelfmark({ workers, databaseUrl: db, dir });
    t.after(() => s.stop());
    const served = s.servers();
    const write = (accept: string, kind: 'personen' | 'werke' = 'personen') =>
      ask(s.port, {
        method: 'POST',
        path: `/${kind}`,
        accept,
        staff: true,
        json: kind === 'personen' ? newPerson('W') : { titel: `Lock probe ${Math.random()}` },
      });

    // 1. A short hold: writes wait for it, everything else is answered meanwhile. Static files
    // and reads go one after another for a while (the writes start waiting during it); each
    // must be answered before any write is (a worker blocked in busy_timeout answers nothing).
    let lock = await holdWriteLock(db, t);
    const order: string[] = [];
    const writes = Array.from({ length: 2 * Math.max(1, workers) }, (_, i) =>
      tracked(order, `write ${i}`, write('application/json')),
    );
    const others: Answer[] = [];
    const end = Date.now() + 2500;
    for (let i = 0; i < 40 && Date.now() < end; i++) {
      const path = i % 2 ? '/personen/goethe' : '/static/shelfmark.css';
      others.push(await tracked(order, `other ${i}`, ask(s.port, { path, accept: 'application/json' })));
    }
    await lock.release();
    const written = await Promise.all(writes);
    assert.deepEqual(
      others.map((a) => a.status),
      others.map(() => 200),
    );
    const firstWrite = order.findIndex((name) => name.startsWith('write'));
    assert.equal(
      firstWrite === -1 ? others.length : firstWrite,
      others.length,
      `answered in this order while the lock was held: ${order.join(', ')}`,
    );
    for (const answer of written) {
      assert.ok(
        answer.status === 201 ||
          problemOf503(answer, 'application/json', 'SHELFMARK_DATABASE_BUSY') === undefined,
        `write: ${answer.status} ${answer.body.slice(0, 200)}`,
      );
    }

    // 2. A hold longer than a write waits: 503 with Retry-After for persons and works.
    lock = await holdWriteLock(db, t);
    const refused = await Promise.all([
      ...FORMATS.map((f) => write(f.accept).then((a) => ({ a, accept: f.accept }))),
      ...FORMATS.map((f) => write(f.accept, 'werke').then((a) => ({ a, accept: f.accept }))),
    ]);
    const duringHold = await ask(s.port, { path: '/static/shelfmark.css' });
    const readDuringHold = await ask(s.port, { path: '/personen/goethe', accept: 'text/html' });
    await lock.release();
    for (const { a, accept } of refused) {
      assert.equal(problemOf503(a, accept, 'SHELFMARK_DATABASE_BUSY'), undefined, accept);
    }
    assert.equal(duringHold.status, 200);
    assert.equal(readDuringHold.status, 200);

    // 3. Recovered without a restart; every acknowledged write is there.
    assert.equal((await write('application/json')).status, 201);
    assert.equal((await write('application/json', 'werke')).status, 201);
    for (const answer of written.filter((a) => a.status === 201)) {
      const location = new URL(String(answer.headers.location)).pathname;
      // As staff: a new person has no works yet, so only staff may see it (ADR 0062).
      assert.equal((await ask(s.port, { path: location, staff: true })).status, 200, location);
    }
    const mainAlive = alive(s.pid);
    const deadServers = served.filter((pid) => !alive(pid));
    await s.stop();
    assert.ok(mainAlive, 'the server process lives');
    assert.deepEqual(deadServers, []);
    const errors = readLines(s.errorLog);
    assert.deepEqual(childDeaths(errors), []);
    assert.deepEqual(nonCombined(readLines(s.accessLog)), []);
    const log = errorLogSummary(errors);
    const busy = refused.length + written.filter((a) => a.status === 503).length;
    t.diagnostic(`${busy} writes answered 503; error log: ${log.entries.length} entries`);
    assert.ok(log.firsts <= 2 * Math.max(1, workers), log.entries.join('\n'));
    assert.ok(log.firsts + log.repeated >= busy, `${log.firsts} + ${log.repeated} < ${busy}`);
  });
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serialSharedRead, sharedRead } from './shared-read.ts';

/**
 * A database whose reads take their snapshot when they start and answer when the test says so:
 * `reads` lists the reads in the order they started, each with the value it saw.
 */
function slowDatabase() {
  let value = 0;
  const reads: { saw: number; answer: () => void; fail: (error: Error) => void }[] = [];
  return {
    reads,
    write: () => (value += 1),
    read: () => {
      const saw = value;
      const { promise, resolve, reject } = Promise.withResolvers<number>();
      reads.push({ saw, answer: () => resolve(saw), fail: reject });
      return promise;
    },
  };
}

/** The event loop's next turn: this turn's shared read has started. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('the callers of one turn share one read, started after the last of them asked', async () => {
  const database = slowDatabase();
  const read = sharedRead(database.read);
  const first = read();
  const second = read();
  assert.equal(database.reads.length, 0, 'not sent while callers of this turn may still come');
  // A write committed (and acknowledged) before the last caller of this turn asked …
  database.write();
  const third = read();
  await turn();
  assert.equal(database.reads.length, 1, 'one read for the three callers');
  database.reads[0]!.answer();
  // … is seen by all of them: the read started after every one of them asked.
  assert.deepEqual(await Promise.all([first, second, third]), [1, 1, 1]);
});

test('a caller never gets a read that started before it asked', async () => {
  const database = slowDatabase();
  const read = sharedRead(database.read);
  const early = read();
  await turn();
  assert.equal(database.reads.length, 1, 'the early read is under way (snapshot 0)');
  // A write commits and is acknowledged while it runs; a request arriving now must see it.
  database.write();
  const late = read();
  await turn();
  assert.equal(database.reads.length, 2, 'the late caller has a read of its own');
  database.reads[1]!.answer();
  assert.equal(await late, 1);
  database.reads[0]!.answer();
  assert.equal(await early, 0);
});

test('a failed read fails its own callers only', async () => {
  const database = slowDatabase();
  const read = sharedRead(database.read);
  const failing = [read(), read()];
  await turn();
  const next = read();
  await turn();
  database.reads[0]!.fail(new Error('connection lost'));
  for (const caller of failing) await assert.rejects(caller, /connection lost/);
  database.reads[1]!.answer();
  assert.equal(await next, 0);
});

test('a read that throws before it returns a promise rejects and does not block later reads', async () => {
  let calls = 0;
  const read = sharedRead(() => {
    calls += 1;
    if (calls === 1) throw new Error('no pool');
    return Promise.resolve(calls);
  });
  await assert.rejects(read(), /no pool/);
  assert.equal(await read(), 2);
});

test('serialSharedRead: one read at a time; the callers meanwhile share the next, sent after they asked (ADR 0105)', async () => {
  const database = slowDatabase();
  const read = serialSharedRead(database.read);
  const early = read();
  await turn();
  assert.equal(database.reads.length, 1, 'the early read is under way (snapshot 0)');
  database.write(); // acknowledged while it runs: the callers from now on must see it
  const late = [read()];
  await turn();
  late.push(read());
  await turn();
  assert.equal(database.reads.length, 1, 'callers of later turns wait: one read at a time');
  database.reads[0]!.answer();
  assert.equal(await early, 0);
  await turn();
  assert.equal(database.reads.length, 2, 'one read for the callers of both later turns');
  database.reads[1]!.answer();
  assert.deepEqual(await Promise.all(late), [1, 1]);
  // A failed read fails its callers and does not stop the next.
  const failing = read();
  await turn();
  database.reads[2]!.fail(new Error('gone'));
  await assert.rejects(failing, /gone/);
  const after = read();
  await turn();
  database.reads[3]!.answer();
  assert.equal(await after, 1);
});

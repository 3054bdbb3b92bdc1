// The process's write lock (ADR 0023, 0104): shared and exclusive holders of a key, served in
// arrival order, released when the work ends however it ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holding, serialized, type LockClaim } from './lock.ts';

/** A job that records its start and end and runs until released. */
function job(events: string[], name: string) {
  let finish = (): void => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish,
    run: async () => {
      events.push(`${name} start`);
      await done;
      events.push(`${name} end`);
      return name;
    },
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

const shared = (key: string): LockClaim => ({ key, mode: 'shared' });
const exclusive = (key: string): LockClaim => ({ key, mode: 'exclusive' });

test('shared holders run side by side; an exclusive one waits for them, and later ones wait for it', async () => {
  const events: string[] = [];
  const a = job(events, 'a');
  const b = job(events, 'b');
  const x = job(events, 'x');
  const c = job(events, 'c');
  const runs = [
    holding([shared('k')], a.run),
    holding([shared('k')], b.run),
    holding([exclusive('k')], x.run),
    holding([shared('k')], c.run),
  ];
  await settle();
  assert.deepEqual(events, ['a start', 'b start'], 'x waits for a and b; c waits behind x');
  a.finish();
  await settle();
  assert.deepEqual(events, ['a start', 'b start', 'a end'], 'x still waits for b');
  b.finish();
  await settle();
  assert.deepEqual(events.slice(3), ['b end', 'x start'], 'c waits while x holds the key');
  x.finish();
  await settle();
  assert.deepEqual(events.slice(5), ['x end', 'c start']);
  c.finish();
  assert.deepEqual(await Promise.all(runs), ['a', 'b', 'x', 'c']);
});

test('items: writes of different items under one shared key overlap; writes of one item do not', async () => {
  const events: string[] = [];
  const one = job(events, 'one');
  const two = job(events, 'two');
  const again = job(events, 'again');
  const runs = [
    holding([shared('catalogue'), exclusive('/werke/a')], one.run),
    holding([shared('catalogue'), exclusive('/werke/b')], two.run),
    holding([shared('catalogue'), exclusive('/werke/a')], again.run),
  ];
  await settle();
  assert.deepEqual(events, ['one start', 'two start']);
  one.finish();
  await settle();
  assert.deepEqual(events.slice(2), ['one end', 'again start']);
  two.finish();
  again.finish();
  await Promise.all(runs);
});

test('a key is given back when the work throws, and serialized() runs one at a time', async () => {
  await assert.rejects(
    serialized('k2', () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  const events: string[] = [];
  const first = job(events, 'first');
  const second = job(events, 'second');
  const runs = [serialized('k2', first.run), serialized('k2', second.run)];
  await settle();
  assert.deepEqual(events, ['first start'], 'the failed holder left the key free, the next one waits');
  first.finish();
  await settle();
  assert.deepEqual(events.slice(1), ['first end', 'second start']);
  second.finish();
  await Promise.all(runs);
});

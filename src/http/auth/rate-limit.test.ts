import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limiterKey, MemoryLoginLimiter } from './rate-limit.ts';

const MIN = 60_000;

test('sliding window: 5 failures per 15 minutes', () => {
  let now = 0;
  const limiter = new MemoryLoginLimiter({ now: () => now });
  const key = limiterKey('Alice', '192.0.2.1');
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(limiter.check(key), { allowed: true }, `attempt ${i + 1}`);
    limiter.recordFailure(key);
    now += MIN; // failures at 0, 1, 2, 3, 4 minutes
  }
  assert.deepEqual(
    limiter.check(key),
    { allowed: false, retryAfterSeconds: 10 * 60 },
    'at 5 min: wait until 15',
  );
  now = 15 * MIN - 1000;
  assert.deepEqual(limiter.check(key), { allowed: false, retryAfterSeconds: 1 });
  now = 15 * MIN;
  assert.deepEqual(limiter.check(key), { allowed: true }, 'the first failure left the window');
  limiter.recordFailure(key);
  assert.equal(limiter.check(key).allowed, false, 'one more failure blocks again');
  now = 16 * MIN;
  assert.deepEqual(limiter.check(key), { allowed: true });
});

test('keys are per account and address; success resets', () => {
  const now = 0;
  const limiter = new MemoryLoginLimiter({ maxFailures: 2, now: () => now });
  const a = limiterKey('alice', '192.0.2.1');
  limiter.recordFailure(a);
  limiter.recordFailure(a);
  assert.equal(limiter.check(a).allowed, false);
  assert.equal(limiter.check(limiterKey('ALICE', '192.0.2.1')).allowed, false, 'names are case-folded');
  assert.equal(limiter.check(limiterKey('alice', '192.0.2.2')).allowed, true, 'another address');
  assert.equal(limiter.check(limiterKey('bob', '192.0.2.1')).allowed, true, 'another account');
  limiter.reset(a);
  assert.equal(limiter.check(a).allowed, true);
});

test('memory stays bounded', () => {
  const limiter = new MemoryLoginLimiter({ maxFailures: 1, maxKeys: 3, now: () => 0 });
  for (const name of ['a', 'b', 'c', 'd']) limiter.recordFailure(name);
  assert.equal(limiter.check('a').allowed, true, 'the oldest key was dropped');
  assert.equal(limiter.check('d').allowed, false);
});

import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { BodyClock } from './body-clock.ts';

// Node's mocked timers drive setTimeout; `now` follows them.
function clock() {
  mock.timers.enable({ apis: ['setTimeout'] });
  let t = 0;
  return {
    now: () => t,
    tick(ms: number) {
      t += ms;
      mock.timers.tick(ms);
    },
  };
}

test('without bytes the body times out after bodyTimeoutMs', (t) => {
  t.after(() => mock.timers.reset());
  const c = clock();
  let fired = 0;
  new BodyClock({ bodyTimeoutMs: 20_000, bodyMinRate: 500 }, () => fired++, c.now);
  c.tick(19_999);
  assert.equal(fired, 0);
  c.tick(1);
  assert.equal(fired, 1);
});

test('every byte moves the deadline by 1/MinRate seconds', (t) => {
  t.after(() => mock.timers.reset());
  const c = clock();
  let fired = 0;
  const body = new BodyClock({ bodyTimeoutMs: 20_000, bodyMinRate: 500 }, () => fired++, c.now);
  c.tick(10_000);
  body.received(500); // one more second
  c.tick(10_999);
  assert.equal(fired, 0);
  c.tick(1);
  assert.equal(fired, 1);
});

test('a byte every 5 s (far below 500/s) still runs out at ~20 s', (t) => {
  t.after(() => mock.timers.reset());
  const c = clock();
  let fired = 0;
  const body = new BodyClock({ bodyTimeoutMs: 20_000, bodyMinRate: 500 }, () => fired++, c.now);
  for (let i = 0; i < 4; i++) {
    c.tick(5_000);
    if (!fired) body.received(1);
  }
  c.tick(10);
  assert.equal(fired, 1);
});

test('stop() cancels the deadline', (t) => {
  t.after(() => mock.timers.reset());
  const c = clock();
  let fired = 0;
  const body = new BodyClock({ bodyTimeoutMs: 1000, bodyMinRate: 500 }, () => fired++, c.now);
  body.stop();
  c.tick(5000);
  assert.equal(fired, 0);
});

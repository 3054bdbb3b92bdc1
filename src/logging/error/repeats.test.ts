// Repeated errors: the first occurrence in full, then one summary per interval (fake timers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRepeats } from './repeats.ts';

function recorder() {
  const lines: string[] = [];
  const repeats = createRepeats((level, message) => lines.push(`${level} ${message}`), 10_000);
  const occur = (key: string) => repeats.occur(key, 'error', () => lines.push(`error FULL ${key}`));
  return { lines, repeats, occur };
}

test('the first occurrence is written, the rest summarised once per interval', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { lines, occur } = recorder();
  for (let i = 0; i < 500; i++) occur('UnavailableError: connect ECONNREFUSED');
  assert.deepEqual(lines, ['error FULL UnavailableError: connect ECONNREFUSED']);
  t.mock.timers.tick(10_000);
  assert.deepEqual(lines.slice(1), [
    'error ... repeated 499 times in the last 10 s: UnavailableError: connect ECONNREFUSED',
  ]);
  for (let i = 0; i < 3; i++) occur('UnavailableError: connect ECONNREFUSED');
  t.mock.timers.tick(10_000);
  assert.equal(
    lines[2],
    'error ... repeated 3 times in the last 10 s: UnavailableError: connect ECONNREFUSED',
  );
  // A quiet interval forgets the key: the next occurrence is written in full again.
  t.mock.timers.tick(10_000);
  assert.equal(lines.length, 3);
  occur('UnavailableError: connect ECONNREFUSED');
  assert.equal(lines[3], 'error FULL UnavailableError: connect ECONNREFUSED');
});

test('different keys are counted apart; flush writes what is pending', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { lines, repeats, occur } = recorder();
  occur('A');
  occur('B');
  occur('A');
  occur('A');
  repeats.flush();
  assert.deepEqual(lines, ['error FULL A', 'error FULL B', 'error ... repeated 2 times in the last 10 s: A']);
  occur('A');
  assert.equal(lines.at(-1), 'error FULL A');
});

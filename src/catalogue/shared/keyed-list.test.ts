// When a list's total is counted: beside a first page where reads run side by side, after the
// page otherwise (a refused cursor costs no count).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totalFor } from './keyed-list.ts';
import type { Total } from '../model.ts';

function counter() {
  const calls: string[] = [];
  const total = (): Promise<Total> => {
    calls.push('count');
    return Promise.resolve({ count: 501, exact: false });
  };
  return { calls, total };
}

test('a first page starts its count at once where reads run side by side', async () => {
  const { calls, total } = counter();
  const later = totalFor(total, {}, true);
  assert.deepEqual(calls, ['count'], 'started before the page is read');
  assert.deepEqual(await later(), { count: 501, exact: false });
  assert.deepEqual(calls, ['count'], 'counted once');
});

test('a page with a cursor, or a database that reads in turn, counts after the page', async () => {
  for (const [request, concurrent] of [
    [{ after: 'abc' }, true],
    [{ before: 'abc' }, true],
    [{}, false],
  ] as const) {
    const { calls, total } = counter();
    const later = totalFor(total, request, concurrent);
    assert.deepEqual(calls, [], `${JSON.stringify(request)}, concurrent ${concurrent}: not yet`);
    await later();
    assert.deepEqual(calls, ['count']);
    await later();
    assert.deepEqual(calls, ['count'], 'awaited again: counted once');
  }
});

test('a count that fails while the page fails first is nobody’s unhandled rejection', async () => {
  const failing = () => Promise.reject(new Error('connection terminated'));
  const later = totalFor(failing, {}, true);
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(later(), /connection terminated/, 'still the answer of whoever awaits it');
});

// When a list's total is counted: beside the page where reads run side by side (a refused cursor
// costs no count), after the page otherwise; once either way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totalFor } from './keyed-list.ts';
import { InvalidCursorError } from '../../storage/index.ts';
import type { Total } from '../model.ts';

function counter() {
  const calls: string[] = [];
  const total = (): Promise<Total> => {
    calls.push('count');
    return Promise.resolve({ count: 501, exact: false });
  };
  return { calls, total };
}

const checked: string[] = [];
const checkCursor = (cursor: string) => {
  checked.push(cursor);
  if (cursor === 'refused') throw new InvalidCursorError('malformed paging cursor');
};

test('where reads run side by side, every page starts its count at once, a cursor checked first', async () => {
  for (const request of [{}, { after: 'abc' }, { before: 'abc' }, { after: 'abc', before: 'refused' }]) {
    const { calls, total } = counter();
    checked.length = 0;
    const later = totalFor(total, request, true, checkCursor);
    assert.deepEqual(calls, ['count'], `${JSON.stringify(request)}: started before the page is read`);
    assert.deepEqual(
      checked,
      'after' in request || 'before' in request ? ['abc'] : [],
      'the cursor the page reads',
    );
    assert.deepEqual(await later(), { count: 501, exact: false });
    await later();
    assert.deepEqual(calls, ['count'], 'counted once');
  }
});

test('a cursor the page would refuse costs no count', () => {
  const { calls, total } = counter();
  assert.throws(() => totalFor(total, { before: 'refused' }, true, checkCursor), InvalidCursorError);
  assert.deepEqual(calls, []);
});

test('a database that reads in turn counts after the page, once', async () => {
  for (const request of [{}, { after: 'abc' }]) {
    const { calls, total } = counter();
    const later = totalFor(total, request, false, checkCursor);
    assert.deepEqual(calls, [], `${JSON.stringify(request)}: not yet`);
    await later();
    assert.deepEqual(calls, ['count']);
    await later();
    assert.deepEqual(calls, ['count'], 'awaited again: counted once');
  }
});

test('a count that fails while the page fails first is nobody’s unhandled rejection', async () => {
  const failing = () => Promise.reject(new Error('connection terminated'));
  const later = totalFor(failing, {}, true, checkCursor);
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(later(), /connection terminated/, 'still the answer of whoever awaits it');
});

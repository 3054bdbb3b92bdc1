// againWhenChanged: a lost compare-and-set runs the flow again (so preconditions are checked
// against the new state); losing every time is 412; a write the database rolled back in a
// deadlock runs again a few times (ADR 0055); other errors pass through untouched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangedMeanwhileError, HttpError } from '../shared/index.ts';
import { mapDatabaseError } from '../../storage/index.ts';
import { againWhenChanged } from './changed.ts';

test('a lost compare-and-set runs the whole flow again', async () => {
  let runs = 0;
  const result = await againWhenChanged(async () => {
    runs += 1;
    if (runs === 1) throw new ChangedMeanwhileError('work 1');
    return 'written';
  });
  assert.equal(result, 'written');
  assert.equal(runs, 2);
});

test('losing every round ends in 412 after a bounded number of runs', async () => {
  let runs = 0;
  await assert.rejects(
    againWhenChanged(async () => {
      runs += 1;
      throw new ChangedMeanwhileError('work 1');
    }),
    (error: unknown) =>
      error instanceof HttpError && error.status === 412 && error.code === 'SHELFMARK_PRECONDITION_FAILED',
  );
  assert.equal(runs, 3);
});

test('any other error (such as the 412 of a stale If-Match) is not retried', async () => {
  let runs = 0;
  const stale = new HttpError('SHELFMARK_PRECONDITION_FAILED', { detail: 'stale' });
  await assert.rejects(
    againWhenChanged(async () => {
      runs += 1;
      throw stale;
    }),
    (error: unknown) => error === stale,
  );
  assert.equal(runs, 1);
});

test('a write rolled back in a deadlock runs again; one that keeps failing ends in the 503 error', async () => {
  const deadlock = () => mapDatabaseError({ code: '40P01', message: 'deadlock detected' });
  let runs = 0;
  const result = await againWhenChanged(async () => {
    runs += 1;
    if (runs < 3) throw deadlock();
    return 'written';
  });
  assert.equal(result, 'written');
  assert.equal(runs, 3);
  runs = 0;
  const last = deadlock();
  await assert.rejects(
    againWhenChanged(async () => {
      runs += 1;
      throw runs === 3 ? last : deadlock();
    }),
    (error: unknown) => error === last,
  );
  assert.equal(runs, 3);
});

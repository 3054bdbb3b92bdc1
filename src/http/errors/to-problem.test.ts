// The one mapping of storage errors to HTTP: busy and unavailable are 503 with Retry-After and
// a readable body, reported but not "unexpected"; other storage errors stay 500.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BusyError, ConflictError, UnavailableError } from '../../storage/errors.ts';
import { toProblem } from './to-problem.ts';

const instance = 'https://library.example/personen';

test('a busy database is 503 SHELFMARK_DATABASE_BUSY with Retry-After: 1, reported', () => {
  const outcome = toProblem(new BusyError('database is locked'), instance, false);
  assert.equal(outcome.problem.status, 503);
  assert.equal(outcome.problem.code, 'SHELFMARK_DATABASE_BUSY');
  assert.equal(outcome.problem.instance, instance);
  assert.match(outcome.problem.detail ?? '', /try again/);
  assert.deepEqual(outcome.headers, { 'Retry-After': '1' });
  assert.equal(outcome.unexpected, false);
  assert.equal(outcome.report, true);
});

test('an unavailable database is 503 SHELFMARK_DATABASE_UNAVAILABLE; the engine message is not shown', () => {
  const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
  const outcome = toProblem(new UnavailableError(cause.message, { cause }), instance, true);
  assert.equal(outcome.problem.status, 503);
  assert.equal(outcome.problem.code, 'SHELFMARK_DATABASE_UNAVAILABLE');
  assert.deepEqual(outcome.headers, { 'Retry-After': '5' });
  assert.equal(outcome.unexpected, false);
  assert.equal(outcome.report, true);
  assert.doesNotMatch(JSON.stringify(outcome.problem), /10\.0\.0\.7|ECONNREFUSED|exception/);
});

test('a storage error that is not transient (an unhandled conflict) stays an unexpected 500', () => {
  const outcome = toProblem(new ConflictError('duplicate'), instance, false);
  assert.equal(outcome.problem.status, 500);
  assert.equal(outcome.unexpected, true);
  assert.equal(outcome.report, true);
});

// Overdue-ness changes with the clock, not with writes (ADR 0061): the loan resources are never
// served from the representation cache, and a loan's ETag and Last-Modified move the moment it
// becomes overdue, with no write in between.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagFor } from '../../../test/kit/catalogue/write-support.ts';
import { fakeLoanStore } from '../../../test/kit/catalogue/loan-fakes.ts';
import { loanRepresentation } from '../loans/loan-view.ts';
import { loanResource, loansResource } from '../loans/resource.ts';

test('the loan resources are not cacheable: their representations depend on the clock', () => {
  const store = fakeLoanStore();
  assert.notEqual(loansResource(store).cacheable, true);
  assert.notEqual(loanResource(store).cacheable, true);
});

test("a loan's ETag and Last-Modified change when it becomes overdue, without any write", async () => {
  const loan = (await fakeLoanStore().loan(1, 100))!;
  assert.equal(loan.returnedAt, null);
  const before = loanRepresentation(loan, new Date(loan.dueAt.getTime() - 1000));
  const after = loanRepresentation(loan, new Date(loan.dueAt.getTime() + 1000));
  for (const format of ['json', 'xml', 'html'] as const) {
    assert.notEqual(etagFor(before, format), etagFor(after, format), format);
  }
  assert.equal(before.lastModified?.getTime(), loan.borrowedAt.getTime());
  assert.equal(after.lastModified?.getTime(), loan.dueAt.getTime());
  assert.equal(after.model.overdue, true);
});

// Overdue-ness changes with the clock, not with writes (ADR 0061, 0067): a loan's ETag and
// Last-Modified move the moment it becomes overdue, with no write in between, and until then its
// representations say so (freshUntil), so the representation cache keeps them no longer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagFor } from '../../../test/kit/catalogue/write-support.ts';
import { fakeLoanStore } from '../../../test/kit/catalogue/loan-fakes.ts';
import { loanRepresentation } from './loan-view.ts';
import { loanResource, loansResource } from './resource.ts';

test('the loan resources are cacheable: each representation is fresh until a loan falls due', async () => {
  const store = fakeLoanStore();
  assert.equal(loansResource(store).cacheable, true);
  assert.equal(loanResource(store).cacheable, true);
  const loan = (await store.loan(1, 100))!;
  const due = loan.dueAt.getTime();
  assert.equal(loanRepresentation(loan, new Date(due - 1000)).freshUntil?.getTime(), due);
  assert.equal(loanRepresentation(loan, new Date(due)).freshUntil?.getTime(), due, 'not served at due');
  assert.equal(loanRepresentation(loan, new Date(due + 1000)).freshUntil, undefined, 'overdue for good');
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

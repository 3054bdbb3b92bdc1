// The loan handlers with fake contexts: the access matrix, status codes, redirects and forms.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HandlerMethod, Outcome, Principal } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';
import { fakeContext, type FakeContextOptions } from '../../../test/kit/catalogue/fakes.ts';
import { anna, fakeLoanStore, fields, NOW, USERS } from '../../../test/kit/catalogue/loan-fakes.ts';
import type { LoanStore } from './model.ts';
import { loanResource, loansResource } from './resource.ts';

const opts = { now: () => NOW };

async function call(
  resource: 'loans' | 'loan',
  method: HandlerMethod,
  ctx: FakeContextOptions,
  store: LoanStore = fakeLoanStore(),
): Promise<Outcome> {
  const definition = resource === 'loans' ? loansResource(store, opts) : loanResource(store, opts);
  const handler = definition.methods[method];
  assert.ok(handler, `${resource} has no ${method}`);
  return handler(fakeContext({ ...ctx, method }));
}

/** The status an outcome (or the thrown HttpError) stands for. */
async function statusOf(outcome: Promise<Outcome>): Promise<number> {
  try {
    const o = await outcome;
    return o.type === 'representation' ? (o.status ?? 200) : o.status;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

type Operation = readonly [string, 'loans' | 'loan', HandlerMethod, (user: number) => FakeContextOptions];
const OPERATIONS: readonly Operation[] = [
  ['GET list', 'loans', 'GET', (u) => ({ query: `benutzer=${u}` })],
  ['GET loan', 'loan', 'GET', (u) => ({ query: `benutzer=${u}&id=100` })],
  [
    'POST borrow',
    'loans',
    'POST',
    (u) => ({ query: `benutzer=${u}`, format: 'json', body: fields({ werk: 'faust' }) }),
  ],
  ['DELETE loan', 'loan', 'DELETE', (u) => ({ query: `benutzer=${u}&id=100`, format: 'json' })],
];

describe('access matrix on the loans of user 1 (anna)', () => {
  // POST borrows Faust for the user: Anna already has it, so borrowing for her is tested with
  // the loan returned first. Every cell gets a fresh store.
  const expected: Record<keyof typeof USERS, readonly number[]> = {
    anonymous: [403, 403, 403, 403],
    // Returns are checked in by staff (ADR 0061): the owner's own return is 403 by default.
    owner: [200, 200, 201, 403],
    other: [403, 403, 403, 403],
    staff: [200, 200, 201, 204],
  };
  for (const [who, statuses] of Object.entries(expected) as [keyof typeof USERS, number[]][]) {
    OPERATIONS.forEach(([label, resource, method, context], i) => {
      test(`${who} × ${label} → ${statuses[i]}`, async () => {
        const store = fakeLoanStore();
        if (method === 'POST') await store.returnLoan(anna.id, 100);
        const user: Principal | null = USERS[who];
        assert.equal(
          await statusOf(call(resource, method, { ...context(anna.id), user }, store)),
          statuses[i],
        );
        // A refused write changed nothing.
        if (statuses[i] === 403) {
          assert.equal(store.loans.filter((l) => l.returnedAt === null).length, method === 'POST' ? 1 : 2);
        }
      });
    });
  }
});

describe('unknown and deleted users: 404/410 for staff, 403 for everyone else', () => {
  for (const [who, unknown, deleted] of [
    ['anonymous', 403, 403],
    ['owner', 403, 403],
    ['other', 403, 403],
    ['staff', 404, 410],
  ] as const) {
    test(who, async () => {
      const user = USERS[who];
      for (const [label, resource, method, context] of OPERATIONS) {
        assert.equal(await statusOf(call(resource, method, { ...context(4711), user })), unknown, label);
        assert.equal(await statusOf(call(resource, method, { ...context(666), user })), deleted, label);
      }
      const malformed = await statusOf(call('loans', 'GET', { query: 'benutzer=abc', user }));
      assert.equal(malformed, who === 'staff' ? 404 : 403);
    });
  }
});

test('the staff list of loans due: staff only', async () => {
  for (const [who, status] of [
    ['anonymous', 403],
    ['owner', 403],
    ['other', 403],
    ['staff', 200],
  ] as const) {
    assert.equal(await statusOf(call('loans', 'GET', { user: USERS[who] })), status, who);
  }
  const outcome = await call('loans', 'GET', { user: USERS.staff });
  assert.equal(outcome.type === 'representation' && outcome.representation.canonicalPath, '/ausleihen');
  assert.equal(
    await statusOf(call('loans', 'POST', { user: USERS.staff, body: fields({ werk: 'faust' }) })),
    405,
  );
});

test('a loan of another user, an unknown loan and a returned loan', async () => {
  const staff = { user: USERS.staff };
  assert.equal(await statusOf(call('loan', 'GET', { ...staff, query: 'benutzer=2&id=100' })), 404);
  assert.equal(await statusOf(call('loan', 'GET', { ...staff, query: 'benutzer=1&id=999' })), 404);
  assert.equal(await statusOf(call('loan', 'GET', { ...staff, query: 'benutzer=1&id=102' })), 410);
  assert.equal(await statusOf(call('loan', 'DELETE', { ...staff, query: 'benutzer=1&id=102' })), 410);
  // Ben may not even learn that loan 100 is not his.
  const ben = { user: USERS.other };
  assert.equal(await statusOf(call('loan', 'GET', { ...ben, query: 'benutzer=1&id=100' })), 403);
});

test('returning: 204, then 410; the precondition check sees the current loan', async () => {
  const store = fakeLoanStore();
  const ctx = fakeContext({
    user: USERS.staff,
    method: 'DELETE',
    query: 'benutzer=1&id=100',
    format: 'json',
  });
  assert.deepEqual(await loanResource(store, opts).methods.DELETE!(ctx), { type: 'empty', status: 204 });
  assert.equal(ctx.preconditions.length, 1);
  assert.equal((ctx.preconditions[0] as { canonicalPath: string }).canonicalPath, '/ausleihen/1/100');
  assert.equal(store.loans.find((l) => l.id === 100)?.returnedAt, NOW);
  const again = call('loan', 'DELETE', { user: USERS.staff, query: 'benutzer=1&id=100' }, store);
  assert.equal(await statusOf(again), 410);
});

test('an HTML form return (POST with _method=DELETE) is redirected to the list', async () => {
  const outcome = await call('loan', 'DELETE', {
    user: USERS.staff,
    query: 'benutzer=1&id=100',
    body: fields({ _method: 'DELETE', _csrf: 'fake-csrf-token' }),
  });
  assert.deepEqual(outcome, { type: 'redirect', status: 303, path: '/ausleihen/1' });
});

describe('returns are checked in by staff unless members may return their own (ADR 0061)', () => {
  const ret = (user: Principal | null, memberReturns?: boolean, store = fakeLoanStore()) =>
    loanResource(store, { ...opts, ...(memberReturns !== undefined && { memberReturns }) }).methods.DELETE!(
      fakeContext({ user, method: 'DELETE', query: 'benutzer=1&id=100', format: 'json' }),
    );

  test("by default the borrower's own return is 403: returns are checked in at the desk; nothing changes", async () => {
    const store = fakeLoanStore();
    const error = await ret(USERS.owner, undefined, store).then(
      () => assert.fail('returned'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 403);
    assert.equal(error.code, 'SHELFMARK_FORBIDDEN');
    assert.match(error.detail ?? '', /checked in at the desk/);
    assert.match(error.localDetail?.de ?? '', /Theke/);
    assert.equal(store.loans.find((l) => l.id === 100)?.returnedAt, null);
    // Also for a loan that does not exist: the rule is checked before anything is looked up.
    const unknown = loanResource(store, opts).methods.DELETE!(
      fakeContext({ user: USERS.owner, method: 'DELETE', query: 'benutzer=1&id=999', format: 'json' }),
    );
    assert.equal(await statusOf(unknown), 403);
  });

  test('with SHELFMARK_MEMBER_RETURNS the borrower returns (204); another member still gets 403', async () => {
    assert.deepEqual(await ret(USERS.owner, true), { type: 'empty', status: 204 });
    assert.equal(await statusOf(ret(USERS.other, true)), 403);
    assert.equal(await statusOf(ret(null, true)), 403);
    assert.deepEqual(await ret(USERS.staff, false), { type: 'empty', status: 204 });
  });
});

describe('borrowing', () => {
  const borrow = (body: unknown, format: 'json' | 'html' = 'json', store = fakeLoanStore()) =>
    call('loans', 'POST', { user: USERS.other, query: 'benutzer=2', format, body }, store);

  test('201 with Location and the loan; due in 28 days', async () => {
    const outcome = await borrow(fields({ werk: 'https://library.example/werke/faust' }));
    assert.equal(outcome.type, 'representation');
    if (outcome.type !== 'representation') return;
    assert.equal(outcome.status, 201);
    assert.equal(outcome.location, '/ausleihen/2/103');
    assert.equal(outcome.representation.canonicalPath, '/ausleihen/2/103');
    const model = outcome.representation.model as { loan: { dueAt: Date; werk: { slug: string } } };
    assert.equal(model.loan.werk.slug, 'faust');
    assert.equal(model.loan.dueAt.toISOString(), '2024-06-17T12:00:00.000Z');
  });

  test('an HTML form gets 303 back to the list', async () => {
    assert.deepEqual(await borrow(fields({ werk: '/werke/faust', _csrf: 'x' }), 'html'), {
      type: 'redirect',
      status: 303,
      path: '/ausleihen/2',
    });
  });

  test('409 when no copy is free or the user has the work already', async () => {
    const store = fakeLoanStore();
    assert.equal(await statusOf(borrow(fields({ werk: 'effi-briest' }), 'json', store)), 409);
    assert.equal(await statusOf(borrow(fields({ werk: 'faust' }), 'json', store)), 201);
    assert.equal(await statusOf(borrow(fields({ werk: 'faust' }), 'json', store)), 409);
  });

  test('422 for a missing, malformed, foreign, unknown or deleted work', async () => {
    for (const body of [
      undefined,
      fields({}),
      fields({ werk: '' }),
      fields({ werk: 'Faust!' }),
      fields({ werk: 'https://evil.example/werke/faust' }),
      fields({ werk: '//evil.example/werke/faust' }),
      fields({ werk: '/personen/goethe' }),
      fields({ werk: 'gibt-es-nicht' }),
      fields({ werk: 'weg' }),
      { werk: 42 },
    ]) {
      const error = await borrow(body).then(
        () => assert.fail(`accepted ${JSON.stringify(body)}`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 422, JSON.stringify(body));
      assert.equal(error.extensions.errors?.[0]?.field, 'werk');
    }
  });

  test('409 SHELFMARK_OVERDUE_LOANS when the store refuses for overdue loans, naming the days', async () => {
    const store: LoanStore = {
      ...fakeLoanStore(),
      borrow: async () => ({ ok: false, reason: 'overdue-loans' }),
    };
    const refused = loansResource(store, { ...opts, overdueBlockDays: 21 }).methods.POST!(
      fakeContext({
        user: USERS.other,
        method: 'POST',
        query: 'benutzer=2',
        format: 'json',
        body: fields({ werk: 'faust' }),
      }),
    );
    const error = await refused.then(
      () => assert.fail('borrowed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 409);
    assert.equal(error.code, 'SHELFMARK_OVERDUE_LOANS');
    assert.match(error.detail ?? '', /more than 21 days/);
    assert.match(error.localDetail?.de ?? '', /mehr als 21 Tagen überfällig/);
  });

  test('a JSON link object is accepted as the work', async () => {
    const body = { werk: { titel: 'Faust', url: 'https://library.example/werke/faust' } };
    assert.equal(await statusOf(borrow(body)), 201);
  });
});

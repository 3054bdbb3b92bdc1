// The renewal handler over the real stores (in-memory SQLite): statuses, problem codes, access.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Outcome, Principal } from '../../http/resource/types.ts';
import { migrateToLatest, openDatabase, type Database } from '../../storage/index.ts';
import { catalogueMigrations } from '../migrations/index.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import type { DB } from '../tables.ts';
import { HttpError } from '../shared/index.ts';
import { fakeContext, type FakeContextOptions } from '../../../test/kit/catalogue/fakes.ts';
import { renewalResource } from './renewal-resource.ts';

let database: Database<DB>;
let stores: CatalogueStores;
let serial = 0;

before(async () => {
  database = await openDatabase<DB>(':memory:');
  await migrateToLatest(database, catalogueMigrations);
  stores = createStores(database.db, { capabilities: database.capabilities, maxRenewals: 1 });
});
after(() => database?.close());

async function member(): Promise<Principal> {
  const p = await stores.persons.create({ vorname: 'Leserin', nachname: `V ${++serial}` });
  return { id: p.id, username: `v${serial}`, role: 'member' };
}

/** A loan of a fresh work with one copy (copy rows added when the work store makes none). */
async function lend(user: Principal): Promise<{ loanId: number; workId: number }> {
  const w = await stores.works.create({ titel: `Verlängerbar ${++serial}`, exemplare: 1 });
  const have = await database.db.selectFrom('copies').select('id').where('work_id', '=', w.id).execute();
  if (have.length === 0) {
    const at = new Date().toISOString();
    await database.db
      .insertInto('copies')
      .values({
        work_id: w.id,
        nummer: 1,
        signatur: 'X',
        barcode: `X-${w.id}`,
        standort: 'T',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  const borrowed = await stores.loans.borrow(user.id, { id: w.id });
  assert.ok(borrowed.ok);
  return { loanId: borrowed.loan.id, workId: w.id };
}

async function renew(
  user: Principal | null,
  personId: number,
  loanId: number,
  opts: FakeContextOptions = {},
) {
  const resource = renewalResource(stores.loans, stores.renewals);
  try {
    return await resource.methods.POST!(
      fakeContext({
        format: 'json',
        body: {},
        ...opts,
        user,
        method: 'POST',
        query: { benutzer: String(personId), id: String(loanId) },
      }),
    );
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}
const status = (r: Outcome | HttpError) =>
  r instanceof HttpError ? r.status : r.type === 'representation' ? (r.status ?? 200) : r.status;

test('the borrower and staff renew (200 with the loan, a form 303); others 403', async () => {
  const anna = await member();
  const ben = await member();
  const staff: Principal = { id: 999_998, username: 'personal', role: 'staff' };
  const { loanId } = await lend(anna);
  assert.equal(status(await renew(null, anna.id, loanId)), 403);
  assert.equal(status(await renew(ben, anna.id, loanId)), 403);
  const ok = await renew(anna, anna.id, loanId);
  assert.equal(status(ok), 200);
  assert.ok(!(ok instanceof HttpError) && ok.type === 'representation');
  assert.equal(ok.representation.canonicalPath, `/ausleihen/${anna.id}/${loanId}`);
  const renewed = await stores.loans.loan(anna.id, loanId);
  assert.equal(renewed?.renewals, 1);
  assert.ok(renewed?.renewedAt, 'the renewal is dated');
  assert.equal(ok.representation.lastModified?.getTime(), renewed.renewedAt.getTime(), 'Last-Modified moved');
  const second = await lend(anna);
  const form = await renew(staff, anna.id, second.loanId, { format: 'html', bodyType: 'form' });
  assert.ok(!(form instanceof HttpError) && form.type === 'redirect');
  assert.equal(form.path, `/ausleihen/${anna.id}`);
  assert.equal(status(await renew(staff, anna.id, 987_654)), 404);
});

test('refusals: 409 SHELFMARK_RENEWAL_LIMIT, 409 SHELFMARK_WORK_HELD, 410 when returned', async () => {
  const [anna, ben] = [await member(), await member()];
  const limited = await lend(anna);
  assert.equal(status(await renew(anna, anna.id, limited.loanId)), 200);
  const limit = await renew(anna, anna.id, limited.loanId);
  assert.ok(limit instanceof HttpError);
  assert.deepEqual([limit.status, limit.code], [409, 'SHELFMARK_RENEWAL_LIMIT']);
  assert.match(limit.localDetail?.de ?? '', /verlängert/);
  const held = await lend(anna);
  assert.ok((await stores.holds.place(ben.id, { id: held.workId })).ok);
  const refused = await renew(anna, anna.id, held.loanId);
  assert.ok(refused instanceof HttpError);
  assert.deepEqual([refused.status, refused.code], [409, 'SHELFMARK_WORK_HELD']);
  assert.ok(await stores.loans.returnLoan(anna.id, held.loanId));
  assert.equal(status(await renew(anna, anna.id, held.loanId)), 410);
});

// 0030-counts-without-a-hot-row (PostgreSQL, ADR 0098): two transactions creating persons and
// works at once share no row. The second runs its creates, a fold of the counts and its commit
// with a lock timeout while the first is still open after its own creates: under migration
// 0005's one row per count it waited for the first's commit and failed here. Afterwards the
// counts are exact, folded or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';

const postgres = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (target) => target.dialect === 'postgres',
)!;

async function create(trx: Kysely<DB>, tag: string): Promise<void> {
  const at = '2026-11-27T00:00:00.000Z';
  await sql`insert into persons (slug, vorname, nachname, sort_key, search_text, created_at, updated_at)
    values (${`p-${tag}`}, 'V', ${tag}, ${tag}, ${tag}, ${at}, ${at})`.execute(trx);
  await sql`insert into works (slug, titel, exemplare, sort_key, search_text, created_at, updated_at)
    values (${`w-${tag}`}, ${tag}, 0, ${tag}, ${tag}, ${at}, ${at})`.execute(trx);
}

async function counts(db: Kysely<DB>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('live_row_counts').select(['name', 'n']).execute();
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

test('concurrent creates of persons and works share no row', { skip: postgres.skip }, async () => {
  const database = await postgres.open();
  try {
    const { db } = database;
    const before = await counts(db);
    let created!: () => void;
    const firstCreated = new Promise<void>((resolve) => (created = resolve));
    let finish!: () => void;
    const mayCommit = new Promise<void>((resolve) => (finish = resolve));
    const first = db.transaction().execute(async (trx) => {
      await create(trx, 'eins');
      created();
      await mayCommit;
    });
    await firstCreated;
    try {
      await db.transaction().execute(async (trx) => {
        // Any wait for a lock the first transaction holds fails at once.
        await sql`set local lock_timeout = '200ms'`.execute(trx);
        await create(trx, 'zwei');
        await sql`select fold_live_count('works'), fold_live_count('persons')`.execute(trx);
      });
    } finally {
      finish();
      await first;
    }
    await sql`select fold_live_count('works')`.execute(db);
    const after = await counts(db);
    assert.deepEqual(after, { ...before, persons: before.persons! + 2, works: before.works! + 2 });
    const live = await sql<{ n: string }>`select count(*) as n from works where deleted_at is null`.execute(
      db,
    );
    assert.equal(after.works, Number(live.rows[0]!.n));
  } finally {
    await database.dispose();
  }
});

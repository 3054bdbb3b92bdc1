// Demo data on every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { verifyPassword } from '../accounts/index.ts';
import { catalogueMigrations } from '../migrations/index.ts';
import type { DB } from '../tables.ts';
import { createStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { AUTHORS, DEMO_ACCOUNTS, generateWorks, loadDemo, WORKS } from './index.ts';

test('the demo catalogue is big enough and consistent', () => {
  assert.ok(AUTHORS.length >= 40);
  assert.ok(WORKS.length >= 150);
  const slugs = new Set(AUTHORS.map((a) => a[0]));
  assert.equal(slugs.size, AUTHORS.length);
  for (const [titel, jahr, authors, copies] of WORKS) {
    assert.ok(
      authors.every((a) => slugs.has(a)),
      titel,
    );
    assert.ok(Number.isInteger(jahr) && jahr > 1200 && jahr < 1960, titel);
    assert.ok(copies === undefined || (copies >= 1 && copies <= 5), titel);
  }
  for (const [slug, , , geboren, gestorben] of AUTHORS)
    assert.ok(geboren < gestorben && gestorben < 1956, slug);
});

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`demo data on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    before(async () => {
      database = await target.open();
    });
    after(() => database?.dispose());

    test('loads into an empty database once; migrations are idempotent too', async () => {
      const first = await loadDemo(database.db);
      assert.equal(first.loaded, true);
      assert.equal(first.works, WORKS.length);
      assert.deepEqual(await loadDemo(database.db), { loaded: false, persons: 0, works: 0 });
      assert.deepEqual(await migrateToLatest(database, catalogueMigrations), []);
      const { count } = await database.db
        .selectFrom('works')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), WORKS.length);
    });

    test('Goethe, Faust and the accounts look as docs/representations.md and the README say', async () => {
      const stores = createStores(database.db);
      const goethe = await stores.persons.bySlug('goethe');
      assert.ok(goethe && 'found' in goethe);
      assert.equal(goethe.found.vorname, 'Johann Wolfgang');
      assert.equal(goethe.found.nachname, 'von Goethe');
      assert.equal(goethe.found.username, 'goethe');
      assert.equal(goethe.found.image, '/bilder/goethe.svg');
      assert.ok(goethe.found.werke.some((w) => w.slug === 'faust' && w.titel === 'Faust'));
      const faust = await stores.works.bySlug('faust');
      assert.ok(faust && 'found' in faust);
      assert.equal(faust.found.jahr, 1808);
      assert.equal(faust.found.verfuegbar, faust.found.exemplare - 1, 'anna has borrowed Faust');
      // Every copy a row with a believable shelfmark; exemplare counts them; open loans lend one.
      const copies = await database.db
        .selectFrom('copies')
        .select(['signatur', 'barcode', 'standort'])
        .where('work_id', '=', faust.found.id)
        .orderBy('nummer')
        .execute();
      assert.equal(copies.length, faust.found.exemplare);
      assert.match(copies[0]!.signatur, /^Goe \d+ Fa$/);
      assert.ok(copies.slice(1).every((c, i) => c.signatur === `${copies[0]!.signatur}+${i + 2}`));
      assert.ok(copies.every((c) => ['Freihand', 'Magazin', 'Lesesaal'].includes(c.standort)));
      const counts = await database.db
        .selectFrom('works')
        .leftJoin('copies', 'copies.work_id', 'works.id')
        .select((eb) => ['works.exemplare', eb.fn.count<number>('copies.id').as('n')])
        .groupBy(['works.id', 'works.exemplare'])
        .execute();
      const uncounted = counts.filter((c) => Number(c.n) !== c.exemplare);
      assert.deepEqual(uncounted, []);
      const withoutCopy = await database.db
        .selectFrom('loans')
        .select('id')
        .where('copy_id', 'is', null)
        .execute();
      assert.deepEqual(withoutCopy, []);
      assert.ok((await stores.works.list({ q: 'faust', limit: 10 })).items.some((w) => w.slug === 'faust'));
      const accounts = await database.db.selectFrom('accounts').selectAll().orderBy('username').execute();
      assert.deepEqual(
        accounts.map((a) => [a.username, a.role]),
        [
          ['anna', 'member'],
          ['ben', 'member'],
          ['goethe', 'member'],
          ['personal', 'staff'],
        ],
      );
      for (const account of accounts) {
        const demo = DEMO_ACCOUNTS.find((d) => d.username === account.username);
        assert.equal(
          await verifyPassword(demo?.password ?? '', account.password_hash),
          true,
          account.username,
        );
        assert.equal(await verifyPassword('wrong', account.password_hash), false);
      }
    });

    test('generateWorks adds searchable, pageable works', async () => {
      const result = await generateWorks(database.db, 600);
      assert.deepEqual([result.works, result.persons], [600, 150]);
      const stores = createStores(database.db);
      const page = await stores.works.list({ q: 'stille', limit: 5 });
      assert.equal(page.items.length, 5);
      assert.ok(page.items.every((w) => w.personen.length >= 1));
    });
  });
}

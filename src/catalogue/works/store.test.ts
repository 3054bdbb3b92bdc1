// WorkStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidCursorError } from '../../storage/index.ts';
import type { WorkSummary } from '../model.ts';
import type { DB } from '../tables.ts';
import { moveSlug } from '../../../test/kit/catalogue/move-slug.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { CopiesOnLoanError } from './store.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`WorkStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let goethe: number;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      goethe = (
        await stores.persons.create({ slug: 'goethe', vorname: 'Johann Wolfgang', nachname: 'von Goethe' })
      ).id;
    });
    after(() => database?.dispose());

    test('create and look up by slug and id, with persons and availability', async () => {
      const faust = await stores.works.create({
        slug: 'faust',
        titel: 'Faust',
        jahr: 1808,
        exemplare: 3,
        personIds: [goethe],
      });
      assert.equal(faust.slug, 'faust');
      assert.equal(faust.verfuegbar, 3);
      assert.deepEqual(faust.personen, [
        { id: goethe, slug: 'goethe', vorname: 'Johann Wolfgang', nachname: 'von Goethe' },
      ]);
      const bySlug = await stores.works.bySlug('faust');
      assert.ok(bySlug && 'found' in bySlug);
      assert.equal(bySlug.found.titel, 'Faust');
      assert.ok(bySlug.found.updatedAt instanceof Date);
      assert.deepEqual(await stores.works.byId(faust.id), bySlug);
      assert.equal(await stores.works.bySlug('no-such-work'), null);
      assert.equal(await stores.works.byId(999_999), null);
    });

    test('verfuegbar counts the copies not in an open loan', async () => {
      const work = await stores.works.create({ titel: 'Egmont', exemplare: 2, personIds: [goethe] });
      const copies = await database.db
        .selectFrom('copies')
        .select(['id', 'signatur', 'barcode'])
        .where('work_id', '=', work.id)
        .orderBy('nummer')
        .execute();
      assert.deepEqual(
        copies.map((c) => [c.signatur, c.barcode]),
        [
          [`Goe ${work.id} Eg`, `SM${work.id}-1`],
          [`Goe ${work.id} Eg+2`, `SM${work.id}-2`],
        ],
      );
      const at = new Date().toISOString();
      const [first, second] = copies.map((c) => c.id);
      await database.db
        .insertInto('loans')
        .values([
          {
            person_id: goethe,
            work_id: work.id,
            copy_id: first,
            borrowed_at: at,
            due_at: at,
            returned_at: null,
          },
          {
            person_id: goethe,
            work_id: work.id,
            copy_id: second,
            borrowed_at: at,
            due_at: at,
            returned_at: at,
          },
        ])
        .execute();
      const found = await stores.works.byId(work.id);
      assert.ok(found && 'found' in found);
      assert.equal(found.found.exemplare, 2);
      assert.equal(found.found.verfuegbar, 1);
    });

    test('exemplare written: copies added or free ones withdrawn, never one on loan', async () => {
      const work = await stores.works.create({ titel: 'Clavigo', exemplare: 3, personIds: [goethe] });
      const live = async () =>
        (
          await database.db
            .selectFrom('copies')
            .select('nummer')
            .where('work_id', '=', work.id)
            .where('deleted_at', 'is', null)
            .orderBy('nummer')
            .execute()
        ).map((c) => c.nummer);
      assert.deepEqual(await live(), [1, 2, 3]);
      const [copy3] = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', work.id)
        .where('nummer', '=', 3)
        .execute();
      const at = new Date().toISOString();
      await database.db
        .insertInto('loans')
        .values({ person_id: goethe, work_id: work.id, copy_id: copy3!.id, borrowed_at: at, due_at: at })
        .execute();
      const fields = { titel: 'Clavigo', personIds: [goethe] };
      const two = await stores.works.replace(work.id, { ...fields, exemplare: 2 });
      assert.equal(two?.exemplare, 2);
      assert.deepEqual(await live(), [1, 3], 'the free copy with the highest number goes');
      await assert.rejects(stores.works.replace(work.id, { ...fields, exemplare: 0 }), CopiesOnLoanError);
      assert.deepEqual(await live(), [1, 3], 'nothing written');
      const four = await stores.works.replace(work.id, { ...fields, exemplare: 4 });
      assert.equal(four?.exemplare, 4);
      assert.equal(four?.verfuegbar, 3);
      assert.deepEqual(await live(), [1, 3, 4, 5], 'new copies take new numbers');
    });

    test('a work with a copy on loan is not deleted; returned, it is', async () => {
      const work = await stores.works.create({ titel: 'Stella', exemplare: 1, personIds: [goethe] });
      const copy = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', work.id)
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const { id } = await database.db
        .insertInto('loans')
        .values({ person_id: goethe, work_id: work.id, copy_id: copy.id, borrowed_at: at, due_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await assert.rejects(stores.works.delete(work.id), CopiesOnLoanError);
      const still = await stores.works.byId(work.id);
      assert.ok(still && 'found' in still, 'nothing written');
      await database.db.updateTable('loans').set({ returned_at: at }).where('id', '=', id).execute();
      assert.equal(await stores.works.delete(work.id), true);
      assert.deepEqual(await stores.works.byId(work.id), { gone: true });
    });

    test('generated slugs are lower-case ASCII, umlauts transliterated, unique with -2, -3', async () => {
      const a = await stores.works.create({ titel: 'Der grüne Heinrich' });
      const b = await stores.works.create({ titel: 'Der Grüne Heinrich!' });
      const c = await stores.works.create({ titel: 'der grüne heinrich' });
      assert.deepEqual(
        [a.slug, b.slug, c.slug],
        ['der-gruene-heinrich', 'der-gruene-heinrich-2', 'der-gruene-heinrich-3'],
      );
      const odd = await stores.works.create({ titel: 'Straße: Œuvre – Ça ira?' });
      assert.equal(odd.slug, 'strasse-oeuvre-ca-ira');
    });

    test('a new title keeps the URL; a work added, changed or deleted gives its persons a new version', async () => {
      const versionOfGoethe = async () => {
        const found = await stores.persons.byId(goethe);
        assert.ok(found && 'found' in found);
        return found.found.updatedAt.getTime();
      };
      const v0 = await versionOfGoethe();
      const work = await stores.works.create({ titel: 'Urfaust', personIds: [goethe] });
      const v1 = await versionOfGoethe();
      assert.ok(v1 > v0, 'a work added to a person');
      const renamed = await stores.works.replace(work.id, {
        titel: 'Urfaust (Frühfassung)',
        personIds: [goethe],
      });
      assert.equal(renamed?.slug, 'urfaust', 'PUT stores the resource at the URL given');
      assert.equal(await stores.works.bySlug('urfaust-fruehfassung'), null);
      const v2 = await versionOfGoethe();
      assert.ok(v2 > v1, 'a title shown by the person changed');
      await stores.works.replace(work.id, { titel: 'Urfaust (Frühfassung)', personIds: [] });
      const v3 = await versionOfGoethe();
      assert.ok(v3 > v2, 'a work unlinked from the person');
      await stores.works.replace(work.id, { titel: 'Urfaust (Frühfassung)', personIds: [goethe] });
      await stores.works.delete(work.id);
      assert.ok((await versionOfGoethe()) > v3, 'a work of the person deleted');
    });

    test('a deleted work answers gone (410) by slug, old slug and id, and leaves the lists', async () => {
      const work = await stores.works.create({ titel: 'Vergänglich' });
      await moveSlug(database.db, 'work', work.id, 'vergaenglicher');
      assert.equal(await stores.works.delete(work.id), true);
      assert.equal(await stores.works.delete(work.id), false);
      assert.deepEqual(await stores.works.bySlug('vergaenglicher'), { gone: true });
      assert.deepEqual(await stores.works.bySlug('vergaenglich'), { gone: true });
      assert.deepEqual(await stores.works.byId(work.id), { gone: true });
      const page = await stores.works.list({ q: 'vergänglich', limit: 10 });
      assert.deepEqual(page.items, []);
    });

    test('explicit slugs must be free; bad input is refused', async () => {
      await assert.rejects(stores.works.create({ slug: 'faust', titel: 'Noch ein Faust' }), {
        name: 'ConflictError',
      });
      await assert.rejects(stores.works.create({ slug: 'Faust.json', titel: 'x' }), TypeError);
      await assert.rejects(stores.works.create({ titel: 'x', personIds: [424242] }), {
        name: 'ForeignKeyError',
      });
      // A person deleted after a write looked it up (or read it from the work it shows) is
      // checked again under the write's locks.
      const gone = await stores.persons.create({ slug: 'bald-fort', vorname: 'Bald', nachname: 'Fort' });
      const work = await stores.works.create({ titel: 'Mit Bald', personIds: [gone.id] });
      await stores.persons.delete(gone.id);
      await assert.rejects(stores.works.replace(work.id, { titel: 'Mit Bald', personIds: [gone.id] }), {
        name: 'ForeignKeyError',
      });
      await assert.rejects(stores.works.create({ titel: 'x', exemplare: -1 }), RangeError);
    });

    test('search finds Faust for q=faust, by prefix, by person, and with umlaut spellings', async () => {
      const titles = async (q: string) =>
        (await stores.works.list({ q, limit: 50 })).items.map((w) => w.titel);
      assert.ok((await titles('faust')).includes('Faust'));
      assert.ok((await titles('FAU')).includes('Faust'));
      assert.ok((await titles('goethe faust')).includes('Faust'));
      assert.ok((await titles('wolfgang')).includes('Egmont'));
      for (const q of ['grüne', 'gruene', 'grune', 'GRÜN'])
        assert.ok((await titles(q)).includes('Der grüne Heinrich'), q);
      assert.deepEqual(await titles('zzzxxyy'), []);
    });

    test('hostile search strings are plain words, never query syntax', async () => {
      const hostile = [
        '"',
        "'",
        'faust"*',
        'faust OR 1=1',
        'NEAR(a b)',
        '*',
        '^faust',
        'a:b',
        '\\',
        '-faust',
        'faust AND NOT x',
        "'); drop table works; --",
        '!!!',
        '()',
        'faust & | !',
        '\u0000',
        'x'.repeat(5000),
        '🙂',
      ];
      for (const q of hostile) {
        const page = await stores.works.list({ q, limit: 5 });
        assert.ok(Array.isArray(page.items), q);
      }
      assert.ok(
        (await stores.works.list({ q: 'faust"*)', limit: 5 })).items.some((w) => w.titel === 'Faust'),
      );
      assert.ok(await stores.works.bySlug('faust'), 'the table survived');
    });

    test('malformed cursors are refused with InvalidCursorError', async () => {
      for (const cursor of [
        'nope!',
        Buffer.from('[1,2]').toString('base64url'),
        Buffer.from('{}').toString('base64url'),
      ]) {
        await assert.rejects(stores.works.list({ after: cursor, limit: 5 }), InvalidCursorError);
      }
    });

    test('keyset paging visits every work exactly once while works are inserted', async () => {
      for (let i = 0; i < 23; i += 1)
        await stores.works.create({ titel: `Band ${String(i).padStart(2, '0')}` });
      const total = (await allPages((p) => stores.works.list(p))).length;
      const seen: WorkSummary[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await stores.works.list({ after: cursor, limit: 4 });
        seen.push(...page.items);
        cursor = page.next;
        pages += 1;
        // Inserted both before and after the current position; they may or may not appear.
        await stores.works.create({ titel: `Aaa eingeschoben ${pages}` });
        await stores.works.create({ titel: `Zzz eingeschoben ${pages}` });
      } while (cursor);
      const original = seen.filter((w) => !w.titel.includes('eingeschoben'));
      assert.equal(original.length, total);
      assert.equal(new Set(seen.map((w) => w.id)).size, seen.length, 'no work twice');
      const keys = seen.map((w) => w.titel.toLowerCase());
      assert.deepEqual(keys, [...keys].sort(), 'sorted by title');
    });

    test('before gives the previous page in the same order; first and last pages say so', async () => {
      const first = await stores.works.list({ limit: 3 });
      assert.equal(first.prev, undefined);
      assert.ok(first.next);
      const second = await stores.works.list({ after: first.next, limit: 3 });
      assert.ok(second.prev);
      const back = await stores.works.list({ before: second.prev, limit: 3 });
      assert.deepEqual(back.items, first.items);
      assert.equal(back.prev, undefined);
      assert.equal(back.next, first.next);
      const all = await allPages((p) => stores.works.list(p));
      const lastPage = await walkToEnd((p) => stores.works.list(p), 3);
      assert.equal(lastPage.next, undefined);
      assert.deepEqual(lastPage.items.at(-1), all.at(-1));
    });

    test('the caller asks a page size; the store caps it', async () => {
      const capped = createStores(database.db, { maxPageSize: 2 });
      assert.equal((await capped.works.list({ limit: 1000 })).items.length, 2);
      assert.equal((await stores.works.list({ limit: 0 })).items.length, 1);
    });
  });
}

type Lister = (p: {
  after?: string;
  limit: number;
}) => Promise<{ items: readonly WorkSummary[]; next?: string }>;

async function allPages(list: Lister): Promise<WorkSummary[]> {
  const items: WorkSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ after: cursor, limit: 50 });
    items.push(...page.items);
    cursor = page.next;
  } while (cursor);
  return items;
}

async function walkToEnd(list: Lister, limit: number) {
  let page = await list({ limit });
  while (page.next) page = await list({ after: page.next, limit });
  return page;
}

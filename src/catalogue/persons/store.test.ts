// PersonStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PersonSummary } from '../model.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`PersonStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
    });
    after(() => database?.dispose());

    test('create, look up with works and username', async () => {
      const goethe = await stores.persons.create({
        slug: 'goethe',
        vorname: 'Johann Wolfgang',
        nachname: 'von Goethe',
        image: '/bilder/goethe.svg',
      });
      await stores.works.create({ slug: 'faust', titel: 'Faust', personIds: [goethe.id] });
      await stores.works.create({ titel: 'Egmont', personIds: [goethe.id] });
      await database.db
        .insertInto('accounts')
        .values({
          person_id: goethe.id,
          username: 'goethe',
          password_hash: 'x',
          role: 'member',
          created_at: new Date().toISOString(),
        })
        .execute();
      const found = await stores.persons.bySlug('goethe');
      assert.ok(found && 'found' in found);
      const { updatedAt, ...rest } = found.found;
      assert.ok(updatedAt instanceof Date);
      assert.deepEqual(rest, {
        id: goethe.id,
        slug: 'goethe',
        vorname: 'Johann Wolfgang',
        nachname: 'von Goethe',
        image: '/bilder/goethe.svg',
        username: 'goethe',
        werke: [
          { id: rest.werke[0]?.id, slug: 'egmont', titel: 'Egmont' },
          { id: rest.werke[1]?.id, slug: 'faust', titel: 'Faust' },
        ],
        isPublic: true,
      });
      assert.deepEqual(await stores.persons.byId(goethe.id), found);
      assert.equal(await stores.persons.bySlug('schiller'), null);
      assert.equal(await stores.persons.bySlug('../etc'), null);
    });

    test('umlaut names give transliterated, unique slugs', async () => {
      const a = await stores.persons.create({ vorname: 'Jörg', nachname: 'Müller-Lüdenscheidt' });
      const b = await stores.persons.create({ vorname: 'Jörg', nachname: 'Müller Lüdenscheidt' });
      const c = await stores.persons.create({ vorname: 'Émile', nachname: 'Zola' });
      assert.deepEqual(
        [a.slug, b.slug, c.slug],
        ['joerg-mueller-luedenscheidt', 'joerg-mueller-luedenscheidt-2', 'emile-zola'],
      );
    });

    test('a new name keeps the URL (no move); the works get a new version; deleting answers gone (410)', async () => {
      const p = await stores.persons.create({ vorname: 'Anna', nachname: 'Berger' });
      const work = await stores.works.create({ titel: 'Tagebuch', personIds: [p.id] });
      const before = await stores.works.byId(work.id);
      const renamed = await stores.persons.replace(p.id, { vorname: 'Anna', nachname: 'Bürger' });
      assert.equal(renamed?.slug, 'anna-berger', 'PUT stores the resource at the URL given');
      assert.equal(await stores.persons.bySlug('anna-buerger'), null);
      const shown = await stores.works.byId(work.id);
      assert.ok(before && 'found' in before && shown && 'found' in shown);
      assert.ok(shown.found.updatedAt > before.found.updatedAt, 'the work shows the new name: new version');
      // The work is now found under the person's new name.
      assert.deepEqual(
        (await stores.works.list({ q: 'bürger', limit: 5 })).items.map((w) => w.id),
        [work.id],
      );
      assert.deepEqual((await stores.works.list({ q: 'berger', limit: 5 })).items, []);
      assert.equal(await stores.persons.replace(999_999, { vorname: 'x', nachname: 'y' }), null);
      assert.equal(await stores.persons.delete(p.id), true);
      assert.deepEqual(await stores.persons.bySlug('anna-berger'), { gone: true });
      assert.deepEqual(await stores.persons.byId(p.id), { gone: true });
      const w = await stores.works.byId(work.id);
      assert.ok(w && 'found' in w);
      assert.deepEqual(w.found.personen, [], 'a deleted person is not listed with its works');
    });

    // Most persons here have no works: staff, who see every person (ADR 0062), list them.
    test('search by first or last name, any umlaut spelling, prefix, hostile input', async () => {
      const slugs = async (q: string) =>
        (await stores.persons.list({ q, limit: 20 }, STAFF)).items.map((p) => p.slug);
      assert.deepEqual(await slugs('goethe'), ['goethe']);
      assert.deepEqual(await slugs('johann wolf'), ['goethe']);
      for (const q of ['müller', 'mueller', 'muller', 'MÜLL']) assert.equal((await slugs(q)).length, 2, q);
      assert.deepEqual(await slugs('emile'), ['emile-zola']);
      for (const q of ['"', 'a" OR "b', 'goethe*)', "' or 1=1 --", '***'])
        await stores.persons.list({ q, limit: 5 }, STAFF);
      assert.deepEqual(await slugs('"goethe"'), ['goethe']);
    });

    test('list sorts by surname as filed (particles after), then first name, then id; counts works', async () => {
      await stores.persons.create({ vorname: 'Heinrich', nachname: 'Mann' });
      await stores.persons.create({ vorname: 'Thomas', nachname: 'Mann' });
      await stores.persons.create({ vorname: 'Anna', nachname: 'Mannheim' });
      await stores.persons.create({ vorname: 'Heinrich', nachname: 'von Kleist' });
      const all: PersonSummary[] = [];
      let cursor: string | undefined;
      do {
        const page = await stores.persons.list({ after: cursor, limit: 2 }, STAFF);
        all.push(...page.items);
        cursor = page.next;
      } while (cursor);
      assert.deepEqual(
        all.map((p) => `${p.vorname} ${p.nachname}`),
        [
          'Johann Wolfgang von Goethe',
          'Heinrich von Kleist',
          'Heinrich Mann',
          'Thomas Mann',
          'Anna Mannheim',
          'Jörg Müller Lüdenscheidt',
          'Jörg Müller-Lüdenscheidt',
          'Émile Zola',
        ],
      );
      assert.equal(all.find((p) => p.slug === 'goethe')?.werkAnzahl, 2);
      assert.equal(all.find((p) => p.slug === 'emile-zola')?.werkAnzahl, 0);
      // Walk forward in threes to the last page, then back via `before`: the same pages, reversed.
      const forward = [await stores.persons.list({ limit: 3 }, STAFF)];
      while (forward.at(-1)?.next)
        forward.push(await stores.persons.list({ after: forward.at(-1)?.next, limit: 3 }, STAFF));
      const backward = [forward.at(-1)!];
      while (backward.at(-1)?.prev)
        backward.push(await stores.persons.list({ before: backward.at(-1)?.prev, limit: 3 }, STAFF));
      assert.deepEqual(
        backward.reverse().flatMap((p) => p.items),
        all,
      );
      assert.equal(backward.length, forward.length);
    });

    test('idOf: a live person by id or slug, a former slug as its successor, nothing for the deleted', async () => {
      const kafka = await stores.persons.create({ slug: 'kafka', vorname: 'Franz', nachname: 'Kafka' });
      const gone = await stores.persons.create({ slug: 'weg-person', vorname: 'W', nachname: 'Weg' });
      await database.db
        .insertInto('slug_history')
        .values({
          kind: 'person',
          slug: 'f-kafka',
          target_id: kafka.id,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      assert.equal(await stores.persons.delete(gone.id), true);
      assert.equal(await stores.persons.idOf({ slug: 'kafka' }), kafka.id);
      assert.equal(await stores.persons.idOf({ id: kafka.id }), kafka.id);
      assert.equal(await stores.persons.idOf({ slug: 'f-kafka' }), kafka.id, 'a former slug');
      assert.equal(await stores.persons.idOf({ slug: 'weg-person' }), null, 'deleted, by slug');
      assert.equal(await stores.persons.idOf({ id: gone.id }), null, 'deleted, by id');
      assert.equal(await stores.persons.idOf({ slug: 'niemand' }), null);
      assert.equal(await stores.persons.idOf({ id: 999_999 }), null);
    });
  });
}

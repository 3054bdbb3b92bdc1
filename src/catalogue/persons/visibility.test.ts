// Patron privacy in the person store and the sitemap source, on every engine (ADR 0062): a person
// without a live work is listed, counted and found only for themself and staff; becoming an
// author makes them public, losing the last work private again, each with a new version.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Principal } from '../../http/resource/types.ts';
import type { Person } from '../model.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { sqlSitemapSource } from '../sitemap/index.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';
import { visibleTo } from './visibility.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`patron privacy on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let patron: Person;
    let self: Principal;
    let other: Principal;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      for (const [vorname, nachname] of [
        ['Theodor', 'Fontane'],
        ['Anna', 'Seghers'],
        ['Franz', 'Kafka'],
      ] as const) {
        const author = await stores.persons.create({ vorname, nachname });
        await stores.works.create({ titel: `Werk von ${nachname}`, personIds: [author.id] });
      }
      patron = await stores.persons.create({ slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' });
      const ben = await stores.persons.create({ slug: 'ben-krueger', vorname: 'Ben', nachname: 'Krüger' });
      self = { id: patron.id, username: 'anna', role: 'member' };
      other = { id: ben.id, username: 'ben', role: 'member' };
    });
    after(() => database?.dispose());

    /** Every page of the list (forward, in twos) as `viewer` sees it, and its stated total. */
    async function listed(viewer: Principal | null, q?: string) {
      const slugs: string[] = [];
      const totals = new Set<number | undefined>();
      let after: string | undefined;
      do {
        const page = await stores.persons.list({ q, after, limit: 2 }, viewer);
        slugs.push(...page.items.map((p) => p.slug));
        totals.add(page.total?.count);
        after = page.next;
      } while (after);
      assert.equal(totals.size, 1, 'every page states the same total');
      return { slugs, total: [...totals][0] };
    }

    test('lists, totals and searches: authors for everyone, a patron for themself and staff', async () => {
      const authors = ['theodor-fontane', 'franz-kafka', 'anna-seghers'];
      assert.deepEqual(await listed(null), { slugs: authors, total: 3 });
      assert.deepEqual(await listed(other), {
        slugs: ['theodor-fontane', 'franz-kafka', 'ben-krueger', 'anna-seghers'],
        total: 4,
      });
      assert.deepEqual(await listed(self), {
        slugs: ['anna-berger', 'theodor-fontane', 'franz-kafka', 'anna-seghers'],
        total: 4,
      });
      assert.deepEqual((await listed(STAFF)).total, 5);
      assert.equal((await listed(STAFF)).slugs.length, 5);

      assert.deepEqual(await listed(null, 'anna'), { slugs: ['anna-seghers'], total: 1 });
      assert.deepEqual(await listed(other, 'berger'), { slugs: [], total: 0 });
      assert.deepEqual(await listed(self, 'berger'), { slugs: ['anna-berger'], total: 1 });
      assert.deepEqual(await listed(STAFF, 'anna'), { slugs: ['anna-berger', 'anna-seghers'], total: 2 });
    });

    test('the lookup says whether the person is public; visibleTo hides a private one', async () => {
      const found = await stores.persons.bySlug('anna-berger');
      assert.ok(found && 'found' in found);
      assert.equal(found.found.isPublic, false);
      assert.equal(visibleTo(found, null), null);
      assert.equal(visibleTo(found, other), null);
      assert.equal(visibleTo(found, self), found);
      assert.equal(visibleTo(found, STAFF), found);
      const author = await stores.persons.bySlug('franz-kafka');
      assert.ok(author && 'found' in author && author.found.isPublic);
      assert.equal(visibleTo(author, null), author);
    });

    test('the sitemap names authors, never a patron', async () => {
      const source = sqlSitemapSource(database.db);
      const paths: string[] = [];
      for await (const batch of source.entries(0, 100)) paths.push(...batch.map((e) => e.path));
      assert.equal(await source.count(), paths.length);
      assert.ok(paths.includes('/personen/franz-kafka'));
      assert.ok(!paths.some((p) => p.includes('anna-berger') || p.includes('ben-krueger')), paths.join());
    });

    test('a first work makes a patron public, losing the last one private again; each a new version', async () => {
      const versionOf = async () => {
        const found = await stores.persons.byId(patron.id);
        assert.ok(found && 'found' in found);
        return { isPublic: found.found.isPublic, at: found.found.updatedAt.getTime() };
      };
      const start = await versionOf();
      const work = await stores.works.create({ titel: 'Erinnerungen', personIds: [patron.id] });
      const published = await versionOf();
      assert.equal(published.isPublic, true);
      assert.ok(published.at > start.at, 'a new version');
      assert.ok((await listed(null)).slugs.includes('anna-berger'));
      assert.equal((await listed(null)).total, 4);

      await stores.works.delete(work.id);
      const hidden = await versionOf();
      assert.equal(hidden.isPublic, false);
      assert.ok(hidden.at > published.at, 'a new version');
      assert.deepEqual(await listed(null), {
        slugs: ['theodor-fontane', 'franz-kafka', 'anna-seghers'],
        total: 3,
      });
    });
  });
}

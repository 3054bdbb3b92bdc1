// Compare-and-set of the stores' replace and delete, on every engine (SQLite always, PostgreSQL
// when SHELFMARK_TEST_DATABASE_URL is set): a write that expects an `updated_at` the row no
// longer has fails with ChangedMeanwhileError and writes nothing; `updated_at` changes on every
// write even when the clock stands still.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { ChangedMeanwhileError, nextUpdatedAt } from './compare-and-set.ts';

test('nextUpdatedAt: now when later, else one millisecond after the previous value', () => {
  const previous = '2025-01-31T12:00:00.000Z';
  assert.equal(nextUpdatedAt('2025-01-31T12:00:00.005Z', previous), '2025-01-31T12:00:00.005Z');
  assert.equal(nextUpdatedAt(previous, previous), '2025-01-31T12:00:00.001Z');
  assert.equal(nextUpdatedAt('2025-01-31T11:59:59.000Z', previous), '2025-01-31T12:00:00.001Z');
});

const changedMeanwhile = (error: unknown) => error instanceof ChangedMeanwhileError;

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`compare-and-set writes on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    /** The clock stands still: every write happens in the same millisecond. */
    const frozen = new Date('2025-03-01T09:00:00.000Z');

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities, now: () => frozen });
    });
    after(() => database?.dispose());

    test('work: a stale expectation fails and nothing is written; the fresh one succeeds', async () => {
      const goethe = await stores.persons.create({ vorname: 'Johann Wolfgang', nachname: 'Goethe' });
      const created = await stores.works.create({ titel: 'Urfaust', exemplare: 1 });
      const first = await stores.works.replace(
        created.id,
        { titel: 'Urfaust', exemplare: 2 },
        { expectedUpdatedAt: created.updatedAt },
      );
      assert.ok(first);
      assert.ok(first.updatedAt > created.updatedAt, 'updated_at moved on although the clock stands still');

      await assert.rejects(
        stores.works.replace(
          created.id,
          { titel: 'Faust', exemplare: 9, personIds: [goethe.id] },
          { expectedUpdatedAt: created.updatedAt },
        ),
        changedMeanwhile,
      );
      assert.deepEqual(await stores.works.byId(created.id), { found: first }, 'nothing written');
      assert.equal(await stores.works.bySlug('faust'), null, 'the slug did not move');

      const second = await stores.works.replace(
        created.id,
        { titel: 'Faust', exemplare: 9, personIds: [goethe.id] },
        { expectedUpdatedAt: first.updatedAt },
      );
      assert.equal(second?.titel, 'Faust');
      assert.equal(second?.personen.length, 1);
    });

    test('work: delete with a stale expectation fails and the work stays; then it deletes', async () => {
      const created = await stores.works.create({ titel: 'Clavigo' });
      const replaced = await stores.works.replace(created.id, { titel: 'Clavigo', jahr: 1774 });
      assert.ok(replaced);
      await assert.rejects(
        stores.works.delete(created.id, { expectedUpdatedAt: created.updatedAt }),
        changedMeanwhile,
      );
      assert.deepEqual(await stores.works.byId(created.id), { found: replaced });
      assert.equal(await stores.works.delete(created.id, { expectedUpdatedAt: replaced.updatedAt }), true);
      assert.deepEqual(await stores.works.byId(created.id), { gone: true });
      assert.equal(await stores.works.delete(created.id, { expectedUpdatedAt: replaced.updatedAt }), false);
    });

    test('person: a stale expectation fails for replace and delete; nothing is written', async () => {
      const created = await stores.persons.create({ vorname: 'Bettina', nachname: 'Brentano' });
      const first = await stores.persons.replace(
        created.id,
        { vorname: 'Bettina', nachname: 'Brentano', image: '/bilder/b.svg' },
        { expectedUpdatedAt: created.updatedAt },
      );
      assert.ok(first);
      assert.ok(first.updatedAt > created.updatedAt);
      await assert.rejects(
        stores.persons.replace(
          created.id,
          { vorname: 'Bettina', nachname: 'von Arnim' },
          { expectedUpdatedAt: created.updatedAt },
        ),
        changedMeanwhile,
      );
      await assert.rejects(
        stores.persons.delete(created.id, { expectedUpdatedAt: created.updatedAt }),
        changedMeanwhile,
      );
      assert.deepEqual(await stores.persons.byId(created.id), { found: first }, 'nothing written');
      assert.equal(await stores.persons.bySlug('bettina-von-arnim'), null);
    });

    test('two concurrent replaces with the same expectation: exactly one wins, its state is stored', async () => {
      const created = await stores.works.create({ titel: 'Stella', exemplare: 1 });
      const expect = { expectedUpdatedAt: created.updatedAt };
      const results = await Promise.allSettled(
        [2, 3, 4, 5].map((exemplare) =>
          stores.works.replace(created.id, { titel: 'Stella', exemplare }, expect),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.ok(lost.every((r) => changedMeanwhile(r.reason)));
      const stored = await stores.works.byId(created.id);
      assert.ok(stored && 'found' in stored);
      assert.equal(stored.found.exemplare, won[0]!.value?.exemplare);
    });

    test('without an expectation the last write wins (and updated_at still moves on)', async () => {
      const created = await stores.works.create({ titel: 'Tasso' });
      const a = await stores.works.replace(created.id, { titel: 'Tasso', exemplare: 2 });
      const b = await stores.works.replace(created.id, { titel: 'Tasso', exemplare: 3 });
      assert.ok(a && b);
      assert.ok(created.updatedAt < a.updatedAt && a.updatedAt < b.updatedAt);
      assert.equal(b.exemplare, 3);
    });
  });
}

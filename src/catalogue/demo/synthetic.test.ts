// The synthetic catalogue imported (../transfer) holds exactly the rows the direct writer makes:
// the same slugs, sort keys, search text, links, live counts and list order.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fullyRanked } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { generateWorks, importSynthetic } from './index.ts';

async function rows(db: TestDatabase<DB>['db']) {
  const works = await db
    .selectFrom('works')
    .select(['slug', 'titel', 'jahr', 'exemplare', 'sort_key', 'search_text'])
    .orderBy('sort_key')
    .orderBy('id')
    .execute();
  const links = await db
    .selectFrom('person_work')
    .innerJoin('works', 'works.id', 'person_work.work_id')
    .innerJoin('persons', 'persons.id', 'person_work.person_id')
    .select(['works.slug as work', 'persons.slug as person', 'person_work.position'])
    .orderBy('works.slug')
    .orderBy('person_work.position')
    .execute();
  const persons = await db
    .selectFrom('persons')
    .select(['slug', 'vorname', 'nachname', 'geboren', 'sort_key', 'search_text'])
    .orderBy('sort_key')
    .orderBy('id')
    .execute();
  const counts = await db.selectFrom('live_row_counts').select(['name', 'n']).orderBy('name').execute();
  return { works, links, persons, counts: counts.map((c) => [c.name, Number(c.n)]) };
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`synthetic catalogue on ${target.dialect}`, { skip: target.skip }, () => {
    const opened: TestDatabase<DB>[] = [];
    after(async () => {
      for (const database of opened) await database.dispose();
    });

    test('imported, it is the catalogue the direct writer makes', async () => {
      const [direct, imported] = [await target.open(), await target.open()];
      opened.push(direct, imported);
      await generateWorks(direct.db, 2100, 'same');
      const result = await importSynthetic(imported.db, 2100, 'same');
      assert.deepEqual(result.works, 2100);
      assert.deepEqual(result.persons, 525);
      assert.deepEqual(await rows(imported.db), await rows(direct.db));
      if (target.dialect === 'sqlite') assert.ok(await fullyRanked(imported.db, 'works'));
    });
  });
}

// MARCXML import on every engine: the fixture's nine good records become works with their
// authors (generated slugs, keyed by control number and authority id or name), the bad ones are
// reported by record and line, and a second import of the same file changes nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { changeMark } from '../changes.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { importRecords, readMarcXml } from './index.ts';

type Db = TestDatabase<DB>['db'];

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'records.xml');

async function importMarc(db: Db, input: Readable, batchSize?: number) {
  const bad: [string | undefined, string][] = [];
  const summary = await importRecords(db, readMarcXml(input), {
    batchSize,
    onBad: (_line, reason, at) => bad.push([at, reason]),
  });
  return { summary, bad };
}

const BAD = [
  ['record 7 (line 121)', '245 $a: no title'],
  ['record 9 (line 153)', '100 $a "Homer": vorname: required text'],
  ['record 11 (line 179)', '001: no control number, the key of the work'],
];

async function works(db: Db) {
  const rows = await db
    .selectFrom('works')
    .select(['id', 'slug', 'external_id', 'titel', 'jahr', 'isbn'])
    .orderBy('id')
    .execute();
  const links = await db
    .selectFrom('person_work')
    .innerJoin('persons', 'persons.id', 'person_work.person_id')
    .select(['work_id', 'persons.slug'])
    .orderBy('work_id')
    .orderBy('position')
    .execute();
  return rows.map(({ id, ...w }) => ({
    ...w,
    personen: links.filter((l) => l.work_id === id).map((l) => l.slug),
  }));
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`MARCXML import on ${target.dialect}`, { skip: target.skip }, () => {
    const opened: TestDatabase<DB>[] = [];
    const fresh = async () => {
      const database = await target.open();
      opened.push(database);
      return database.db;
    };
    after(async () => {
      for (const database of opened) await database.dispose();
    });

    for (const batchSize of [1000, 3])
      test(`good records imported, bad ones named, a second import changes nothing (batches of ${batchSize})`, async () => {
        const db = await fresh();
        const first = await importMarc(db, fs.createReadStream(FIXTURE), batchSize);
        assert.deepEqual(first.bad, BAD);
        assert.deepEqual(first.summary.counts.work, { new: 9, changed: 0, unchanged: 0 });
        // Max Frisch twice by his authority id: one person.
        assert.equal(first.summary.counts.person.new, 7);
        const made = await works(db);
        assert.deepEqual(made.slice(0, 2), [
          {
            slug: 'homo-faber-ein-bericht',
            external_id: '(DE-101)957000011',
            titel: 'Homo faber: ein Bericht',
            jahr: 1957,
            isbn: '3518366544',
            personen: ['max-frisch'],
          },
          {
            slug: 'stiller-roman',
            external_id: '(DE-101)954000022',
            titel: 'Stiller: Roman',
            jahr: 1954,
            isbn: null,
            personen: ['max-frisch'],
          },
        ]);
        assert.deepEqual(
          made.slice(2).map((w) => [w.titel, w.jahr, w.isbn, w.personen]),
          [
            ['Malina: Roman', 1971, null, ['ingeborg-bachmann']],
            ['The hobbit, or, There and back again', 1937, '9780261102217', ['j-r-r-tolkien']],
            ['Buddenbrooks: Verfall einer Familie', 1901, null, ['thomas-mann']],
            ['Die Dreigroschenoper', 1928, null, ['bertolt-brecht', 'kurt-weill']],
            ['Der Proceß: Roman', 1925, null, ['franz-kafka']],
            ['Odyssee', 1781, null, []],
            ['Das Nibelungenlied', 1200, null, []],
          ],
        );
        const count = await changeMark(db);
        const second = await importMarc(db, fs.createReadStream(FIXTURE), batchSize);
        assert.deepEqual(second.bad, BAD);
        assert.deepEqual(second.summary.counts.work, { new: 0, changed: 0, unchanged: 9 });
        assert.equal(second.summary.counts.person.new + second.summary.counts.person.changed, 0);
        assert.equal(await changeMark(db), count);
        assert.deepEqual(await works(db), made);
      });

    test('a file that is not well-formed is reported with its line; records before the fault are imported', async () => {
      const db = await fresh();
      const text =
        fs.readFileSync(FIXTURE, 'utf8').split('\n').slice(0, 50).join('\n') + '\n<oops></marc:record>\n';
      const { bad, summary } = await importMarc(db, Readable.from([text]));
      assert.equal(summary.counts.work.new, 2);
      assert.equal(bad.length, 1);
      assert.equal(bad[0]![0], 'line 51');
      assert.equal(bad[0]![1], 'not XML: unexpected close tag.');
    });
  });
}

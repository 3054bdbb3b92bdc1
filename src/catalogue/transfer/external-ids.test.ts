// Imports keyed by external id (migration 0012) on every engine: slugs generated once, matched by
// id afterwards whatever slug the file gives, a second import changes nothing.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { changeMark } from '../changes.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { importRecords, readCsv, readJsonLines } from './index.ts';

type Db = TestDatabase<DB>['db'];

async function importText(db: Db, text: string, format: 'jsonl' | 'csv' = 'jsonl', batchSize?: number) {
  const bad: [number, string][] = [];
  const input = Readable.from([text]);
  const summary = await importRecords(db, format === 'csv' ? readCsv(input) : readJsonLines(input), {
    batchSize,
    onBad: (line, reason) => bad.push([line, reason]),
  });
  return { summary, bad };
}

const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

const FILE = jsonl(
  { type: 'person', externeId: 'gnd:118535773', vorname: 'Max', nachname: 'Frisch' },
  { type: 'person', externeId: 'gnd:2', vorname: 'Max', nachname: 'Frisch' },
  { type: 'work', externeId: 'ctl-1', titel: 'Homo faber', jahr: 1957, personen: ['extern:gnd:118535773'] },
  { type: 'work', externeId: 'ctl-2', titel: 'Stiller', isbn: '3-518-36605-6', personen: ['extern:gnd:2'] },
  { type: 'copy', werk: 'extern:ctl-1', nummer: 1, signatur: 'Fri 1', barcode: 'X-1', standort: 'Magazin' },
);

async function rows(db: Db) {
  return {
    persons: await db.selectFrom('persons').select(['slug', 'external_id']).orderBy('id').execute(),
    works: await db
      .selectFrom('works')
      .select(['slug', 'external_id', 'titel', 'isbn', 'updated_at'])
      .orderBy('id')
      .execute(),
  };
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`external ids on ${target.dialect}`, { skip: target.skip }, () => {
    const opened: TestDatabase<DB>[] = [];
    const fresh = async () => {
      const database = await target.open();
      opened.push(database);
      return database.db;
    };
    after(async () => {
      for (const database of opened) await database.dispose();
    });

    for (const batchSize of [1000, 1])
      test(`records without slug get one, and a second import changes nothing (batches of ${batchSize})`, async () => {
        const db = await fresh();
        const first = await importText(db, FILE, 'jsonl', batchSize);
        assert.deepEqual(first.bad, []);
        const made = await rows(db);
        assert.deepEqual(made.persons, [
          { slug: 'max-frisch', external_id: 'gnd:118535773' },
          { slug: 'max-frisch-2', external_id: 'gnd:2' },
        ]);
        assert.deepEqual(
          made.works.map(({ updated_at: _u, ...w }) => w),
          [
            { slug: 'homo-faber', external_id: 'ctl-1', titel: 'Homo faber', isbn: null },
            { slug: 'stiller', external_id: 'ctl-2', titel: 'Stiller', isbn: '3518366056' },
          ],
        );
        const count = await changeMark(db);
        const second = await importText(db, FILE, 'jsonl', batchSize);
        assert.deepEqual(second.bad, []);
        assert.deepEqual(second.summary.counts.person, { new: 0, changed: 0, unchanged: 2 });
        assert.deepEqual(second.summary.counts.work, { new: 0, changed: 0, unchanged: 2 });
        assert.deepEqual(second.summary.counts.copy, { new: 0, changed: 0, unchanged: 1 });
        assert.equal(await changeMark(db), count);
        assert.deepEqual(await rows(db), made);
      });

    test('the external id wins over a different slug; a slug of another id is a bad line', async () => {
      const db = await fresh();
      await importText(db, FILE);
      const count = await changeMark(db);
      const renamed = jsonl(
        { type: 'person', slug: 'frisch', externeId: 'gnd:118535773', vorname: 'Max', nachname: 'Frisch' },
        {
          type: 'work',
          slug: 'faber',
          externeId: 'ctl-1',
          titel: 'Homo faber',
          jahr: 1957,
          personen: ['max-frisch'],
        },
      );
      const again = await importText(db, renamed);
      assert.deepEqual(again.bad, []);
      assert.equal(again.summary.counts.person.unchanged + again.summary.counts.work.unchanged, 2);
      assert.equal(await changeMark(db), count);
      const changed = await importText(
        db,
        jsonl(
          { type: 'work', slug: 'faber', externeId: 'ctl-1', titel: 'Homo Faber. Ein Bericht', jahr: 1957 },
          { type: 'work', slug: 'stiller', externeId: 'ctl-9', titel: 'Stiller' },
          { type: 'work', slug: 'stiller', titel: 'Stiller', personen: ['max-frisch-2'] },
        ),
      );
      assert.deepEqual(changed.bad, [[2, 'slug stiller: has the external id ctl-2']]);
      assert.deepEqual(changed.summary.counts.work, { new: 0, changed: 1, unchanged: 1 });
      const works = await rows(db);
      assert.deepEqual(
        works.works.map((w) => [w.slug, w.external_id, w.titel]),
        [
          ['homo-faber', 'ctl-1', 'Homo Faber. Ein Bericht'],
          ['stiller', 'ctl-2', 'Stiller'],
        ],
      );
    });

    test('CSV: a slug-less row is keyed by its external id too', async () => {
      const db = await fresh();
      const csv =
        'type,slug,externeId,vorname,nachname,titel,isbn,personen\r\n' +
        'person,,gnd:1,Ingeborg,Bachmann,,,\r\n' +
        'work,,ctl-7,,,Malina,978-3-518-37570-9,extern:gnd:1\r\n';
      const first = await importText(db, csv, 'csv');
      assert.deepEqual(first.bad, []);
      const count = await changeMark(db);
      const second = await importText(db, csv, 'csv');
      assert.deepEqual(second.summary.counts.work, { new: 0, changed: 0, unchanged: 1 });
      assert.equal(await changeMark(db), count);
      const made = await rows(db);
      assert.deepEqual(made.persons, [{ slug: 'ingeborg-bachmann', external_id: 'gnd:1' }]);
      assert.equal(made.works[0]!.isbn, '9783518375709');
    });

    test('a record needs a slug or an external id; an unknown extern: reference is a bad line', async () => {
      const db = await fresh();
      const { bad } = await importText(
        db,
        jsonl(
          { type: 'person', vorname: 'Niemand', nachname: 'X' },
          { type: 'work', externeId: 'w', titel: 'T', personen: ['extern:unbekannt'] },
          { type: 'work', externeId: 'v', titel: 'T', isbn: '12345' },
        ),
      );
      assert.deepEqual(bad, [
        [1, 'slug: not a valid slug'],
        [2, 'personen: no live person extern:unbekannt'],
        [3, 'isbn: must be 10 or 13 digits (ISBN-10 may end in X)'],
      ]);
    });
  });
}

// Import and export against every engine: round trips, idempotence, changes, bad lines.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { fullyRanked } from '../../storage/index.ts';
import { changeMark } from '../changes.ts';
import { createStores } from '../stores.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import {
  csvHeader,
  csvRow,
  exportRecords,
  importRecords,
  jsonLine,
  readCsv,
  readJsonLines,
  type ImportSummary,
} from './index.ts';

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

async function exportText(db: Db, format: 'jsonl' | 'csv' = 'jsonl'): Promise<string> {
  let out = format === 'csv' ? csvHeader() : '';
  for await (const r of exportRecords(db, { accounts: true }))
    out += format === 'csv' ? csvRow(r) : jsonLine(r);
  return out;
}

/** What the stores derive and keep per row, and the triggers' counts, by slug. */
async function derived(db: Db) {
  return {
    persons: await db
      .selectFrom('persons')
      .select(['slug', 'sort_key', 'search_text', 'external_id'])
      .where('deleted_at', 'is', null)
      .orderBy('slug')
      .execute(),
    works: await db
      .selectFrom('works')
      .select(['slug', 'sort_key', 'search_text', 'exemplare', 'external_id', 'isbn'])
      .where('deleted_at', 'is', null)
      .orderBy('slug')
      .execute(),
    counts: (await db.selectFrom('live_row_counts').select(['name', 'n']).orderBy('name').execute()).map(
      (r) => [r.name, Number(r.n)],
    ),
  };
}

async function versions(db: Db) {
  const persons = await db.selectFrom('persons').select(['slug', 'updated_at']).orderBy('slug').execute();
  const works = await db.selectFrom('works').select(['slug', 'updated_at']).orderBy('slug').execute();
  return Object.fromEntries([...persons, ...works].map((r) => [r.slug, r.updated_at]));
}

function total(s: ImportSummary, kind: 'new' | 'changed' | 'unchanged'): number {
  return Object.values(s.counts).reduce((n, c) => n + c[kind], 0);
}

/** A catalogue written by the stores: persons with life dates, works with 0–2 persons, copies, accounts. */
async function storeMadeCatalogue(db: Db): Promise<void> {
  const stores = createStores(db);
  const goethe = await stores.persons.create({
    slug: 'goethe',
    vorname: 'Johann Wolfgang',
    nachname: 'von Goethe',
  });
  await stores.lifeDates.replace(goethe.id, { geboren: 1749, gestorben: 1832 });
  const schiller = await stores.persons.create({
    slug: 'schiller',
    vorname: 'Friedrich',
    nachname: 'Schiller',
    image: 'https://example.org/schiller.png',
  });
  const gone = await stores.persons.create({ slug: 'gone', vorname: 'Ver', nachname: 'Gessen' });
  const faust = await stores.works.create({
    slug: 'faust',
    titel: 'Faust',
    jahr: 1808,
    exemplare: 2,
    personIds: [goethe.id],
  });
  await stores.works.create({
    slug: 'xenien',
    titel: 'Xenien, "Epigramme"',
    jahr: 1796,
    exemplare: 1,
    personIds: [schiller.id, goethe.id, gone.id],
  });
  await stores.works.create({ slug: 'anonym', titel: 'Ärger im Äther', exemplare: 0 });
  await stores.persons.delete(gone.id);
  // External ids and an ISBN (migration 0012): only an import writes them; the round trip keeps them.
  await db.updateTable('persons').set({ external_id: 'gnd:118540238' }).where('id', '=', goethe.id).execute();
  await db
    .updateTable('works')
    .set({ external_id: 'ctl 0001', isbn: '9783150000014' })
    .where('id', '=', faust.id)
    .execute();
  const at = '2024-01-01T00:00:00.000Z';
  // The store made faust's two copies and xenien's one; faust's get a shelfmark, barcode and place of their own.
  for (const nummer of [1, 2])
    await db
      .updateTable('copies')
      .set({
        signatur: `Goe ${nummer} Fa`,
        barcode: `B-${nummer}`,
        standort: 'Freihand, 1. OG',
        missing_since: nummer === 2 ? at : null,
      })
      .where('work_id', '=', faust.id)
      .where('nummer', '=', nummer)
      .execute();
  await db
    .insertInto('accounts')
    .values({
      person_id: schiller.id,
      username: 'fs',
      password_hash: '$scrypt$SECRET-HASH',
      role: 'staff',
      created_at: at,
      // A card printed elsewhere (ADR 0082): the export writes it, the import keeps it.
      card_number: 'K-4711',
    })
    .execute();
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`import and export on ${target.dialect}`, { skip: target.skip }, () => {
    const opened: TestDatabase<DB>[] = [];
    const fresh = async () => {
      const database = await target.open();
      opened.push(database);
      return database.db;
    };
    let source: Db;
    let exported: string;
    after(async () => {
      for (const database of opened) await database.dispose();
    });
    before(async () => {
      source = await fresh();
      await storeMadeCatalogue(source);
      exported = await exportText(source);
    });

    test('the export holds the live catalogue and no password hash', () => {
      const lines = exported.trimEnd().split('\n');
      assert.deepEqual(JSON.parse(lines[0]!), {
        type: 'person',
        slug: 'goethe',
        externeId: 'gnd:118540238',
        vorname: 'Johann Wolfgang',
        nachname: 'von Goethe',
        image: null,
        geboren: 1749,
        gestorben: 1832,
      });
      assert.ok(
        exported.includes(
          '"slug":"faust","externeId":"ctl 0001","titel":"Faust","jahr":1808,"isbn":"9783150000014"',
        ),
      );
      assert.ok(!exported.includes('gone'), 'a deleted person and its links are not exported');
      assert.ok(exported.includes('"personen":["schiller","goethe"]'));
      assert.ok(
        exported.includes(
          '{"type":"account","username":"fs","person":"schiller","rolle":"staff","ausweis":"K-4711"}',
        ),
      );
      assert.ok(!exported.includes('SECRET'));
      assert.equal(lines.length, 2 + 3 + 3 + 1);
    });

    for (const format of ['jsonl', 'csv'] as const) {
      test(`${format}: import → export → import → export is lossless, rows as the stores make them`, async () => {
        const text = await exportText(source, format);
        const db = await fresh();
        const first = await importText(db, text, format);
        assert.deepEqual(first.bad, []);
        assert.deepEqual(first.summary.counts.work, { new: 3, changed: 0, unchanged: 0 });
        assert.equal(await exportText(db, format), text);
        assert.equal(await exportText(db), exported);
        const made = await derived(source);
        // The store leaves a deleted person's names (and their stems, ADR 0079) in its works'
        // search text; the file names live persons only.
        const works = made.works.map((w) => ({
          ...w,
          search_text: w.search_text.replace(' Ver Gessen', '').replace(/ gess$/, ''),
        }));
        assert.deepEqual(await derived(db), {
          ...made,
          works,
          counts: [
            ['persons', 2],
            // Both are authors, so public (migration 0013, ADR 0062).
            ['public_persons', 2],
            ['works', 3],
          ],
        });
        if (target.dialect === 'sqlite') {
          assert.ok(await fullyRanked(db, 'works'));
          assert.ok(await fullyRanked(db, 'persons'));
        }
        const again = await fresh();
        await importText(again, await exportText(db, format), format);
        assert.equal(await exportText(again, format), text);
      });
    }

    // The next three tests go on with one imported catalogue, one after the other.
    let db: Db;
    test('a second import of the same file changes nothing: no version, no change count', async () => {
      db = await fresh();
      await importText(db, exported);
      const count = await changeMark(db);
      const before = await versions(db);
      const { summary, bad } = await importText(db, exported);
      assert.deepEqual(bad, []);
      assert.equal(total(summary, 'new') + total(summary, 'changed'), 0);
      assert.equal(total(summary, 'unchanged'), 9);
      assert.equal(await changeMark(db), count);
      assert.deepEqual(await versions(db), before);
    });

    test('a changed line rewrites that row, the works showing it, and nothing else', async () => {
      const before = await versions(db);
      const count = await changeMark(db);
      const changed = exported.replace('"nachname":"Schiller"', '"nachname":"von Schiller"');
      const { summary } = await importText(db, changed);
      assert.deepEqual(summary.counts.person, { new: 0, changed: 1, unchanged: 1 });
      const after = await versions(db);
      assert.notEqual(after.schiller, before.schiller);
      assert.notEqual(after.xenien, before.xenien, 'xenien shows the name');
      assert.equal(after.faust, before.faust);
      assert.equal(after.goethe, before.goethe);
      assert.notEqual(await changeMark(db), count);
      const xenien = await db
        .selectFrom('works')
        .select('search_text')
        .where('slug', '=', 'xenien')
        .executeTakeFirstOrThrow();
      assert.match(xenien.search_text, /von Schiller/);
      // A work's new person list: both persons get a new version, as with the work store.
      const relinked = changed.replace('"personen":["goethe"]', '"personen":["von-niemand","schiller"]');
      const third = await importText(db, relinked);
      assert.deepEqual(third.bad, [[3, 'personen: no live person von-niemand']]);
      const fixed = changed.replace('"personen":["goethe"]', '"personen":["schiller"]');
      const fourth = await importText(db, fixed);
      assert.deepEqual(fourth.summary.counts.work, { new: 0, changed: 1, unchanged: 2 });
      const last = await versions(db);
      assert.notEqual(last.goethe, after.goethe);
      assert.notEqual(last.schiller, after.schiller);
    });

    test('bad lines are reported with their numbers and reasons; the good ones are imported', async () => {
      const db = await fresh();
      const text = [
        '{"type":"person","slug":"kafka","vorname":"Franz","nachname":"Kafka"}',
        '{"type":"person","slug":',
        '{"type":"work","slug":"der-process","titel":"Der Process","personen":["brod"]}',
        '',
        '{"type":"person","slug":"Bad Slug","vorname":"A","nachname":"B"}',
        '{"type":"work","slug":"das-schloss","titel":"Das Schloss","jahr":1926,"personen":["kafka"]}',
        '{"type":"book","slug":"x"}',
        '{"type":"copy","werk":"nirgends","nummer":1,"signatur":"S","barcode":"B","standort":"O"}',
        '{"type":"person","slug":"brod","vorname":"Max","nachname":"Brod","geburtsort":"Prag"}',
        '{"type":"work","slug":"amerika","titel":"Amerika","jahr":"1927"}',
      ].join('\n');
      for (const batchSize of [1000, 2]) {
        const { summary, bad } = await importText(db, text, 'jsonl', batchSize);
        assert.deepEqual(
          bad.map(([line]) => line),
          [2, 3, 5, 7, 8, 9, 10],
        );
        assert.match(bad[0]![1], /^not JSON/);
        assert.equal(bad[1]![1], 'personen: no live person brod');
        assert.equal(bad[2]![1], 'slug: not a valid slug');
        assert.equal(bad[3]![1], 'type: must be person, work, copy or account');
        assert.equal(bad[4]![1], 'werk: no live work nirgends');
        assert.equal(bad[5]![1], 'unknown field "geburtsort"');
        assert.equal(bad[6]![1], 'jahr: must be a whole number from -3000 to 2100');
        assert.equal(summary.bad, 7);
        assert.equal(total(summary, 'new') + total(summary, 'unchanged'), 2);
      }
      assert.equal(
        await exportText(db),
        '{"type":"person","slug":"kafka","externeId":null,"vorname":"Franz","nachname":"Kafka","image":null,"geboren":null,"gestorben":null}\n' +
          '{"type":"work","slug":"das-schloss","externeId":null,"titel":"Das Schloss","jahr":1926,"isbn":null,"exemplare":null,"personen":["kafka"]}\n',
      );
    });

    test('csv: a bad row is named by the line it starts on', async () => {
      const db = await fresh();
      const text = [
        'type,slug,vorname,nachname,titel,personen',
        'person,kafka,Franz,Kafka,,',
        'person,brod,"Max',
        'Brod",Brod,,',
        'work,das-schloss,,,"Das ""Schloss""",kafka|brod',
        'work,amerika,,,Amerika',
        'work,der-process,,,Der Process,kafka',
      ].join('\r\n');
      const { summary, bad } = await importText(db, text, 'csv');
      assert.deepEqual(bad, [
        [3, 'vorname: contains control characters'],
        [5, 'personen: no live person brod'],
        [6, '5 cells, the header has 6'],
      ]);
      assert.equal(summary.counts.work.new, 1);
      assert.equal(summary.counts.person.new, 1);
    });

    test('a batch the database refuses is written again record by record: never half a record', async () => {
      const db = await fresh();
      // A rule the import's own checks do not know: the database alone refuses this row.
      if (target.dialect === 'sqlite')
        await sql`create trigger refuse_boom before insert on works when new.titel = 'Boom'
          begin select raise(abort, 'no Boom'); end`.execute(db);
      else {
        await sql`create function refuse_boom() returns trigger language plpgsql as $$
          begin if new.titel = 'Boom' then raise exception 'no Boom'; end if; return new; end $$`.execute(db);
        await sql`create trigger refuse_boom before insert on works for each row execute function refuse_boom()`.execute(
          db,
        );
      }
      const text = [
        '{"type":"person","slug":"kafka","vorname":"Franz","nachname":"Kafka"}',
        '{"type":"work","slug":"boom","titel":"Boom","personen":["kafka"]}',
        '{"type":"work","slug":"amerika","titel":"Amerika","personen":["kafka"]}',
      ].join('\n');
      const { summary, bad } = await importText(db, text);
      assert.deepEqual(
        bad.map(([line]) => line),
        [2],
      );
      assert.match(bad[0]![1], /no Boom/);
      assert.equal(summary.counts.work.new, 1);
      const links = await db.selectFrom('person_work').select('work_id').execute();
      assert.equal(links.length, 1, 'no link of the refused work');
      assert.deepEqual(
        (await db.selectFrom('works').select('slug').execute()).map((w) => w.slug),
        ['amerika'],
      );
    });

    test('copies and accounts: keys, taken barcodes and usernames, no password', async () => {
      const text = [
        '{"type":"copy","werk":"faust","nummer":3,"signatur":"S","barcode":"B-1","standort":"O"}',
        '{"type":"copy","werk":"faust","nummer":1,"signatur":"Goe 1 Fa","barcode":"B-1","standort":"Magazin"}',
        '{"type":"account","username":"fs","person":"goethe"}',
        '{"type":"account","username":"fritz","person":"schiller"}',
        '{"type":"account","username":"jwg","person":"goethe","rolle":"staff"}',
      ].join('\n');
      const { summary, bad } = await importText(db, text);
      assert.deepEqual(bad, [
        [1, 'barcode B-1: another copy has it'],
        [3, 'username fs: the account of another person'],
        [4, 'person schiller: already has the account fs'],
      ]);
      assert.deepEqual(summary.counts.copy, { new: 0, changed: 1, unchanged: 0 });
      assert.deepEqual(summary.counts.account, { new: 1, changed: 0, unchanged: 0 });
      const jwg = await db
        .selectFrom('accounts')
        .selectAll()
        .where('username', '=', 'jwg')
        .executeTakeFirstOrThrow();
      assert.equal(jwg.role, 'staff');
      assert.ok(!jwg.password_hash.startsWith('$scrypt$'), 'no password logs in');
    });

    test('exemplare stays the number of live copies: copy records, new works, known works', async () => {
      const live = async (slug: string) => {
        const work = await db
          .selectFrom('works')
          .select(['id', 'exemplare'])
          .where('slug', '=', slug)
          .executeTakeFirstOrThrow();
        const copies = await db
          .selectFrom('copies')
          .select(['nummer', 'barcode', 'signatur'])
          .where('work_id', '=', work.id)
          .where('deleted_at', 'is', null)
          .orderBy('nummer')
          .execute();
        assert.equal(work.exemplare, copies.length, slug);
        return copies;
      };
      const text = [
        '{"type":"copy","werk":"faust","nummer":3,"signatur":"Goe 3 Fa","barcode":"B-3","standort":"Magazin"}',
        '{"type":"work","slug":"egmont","titel":"Egmont","exemplare":2,"personen":["goethe"]}',
        '{"type":"work","slug":"xenien","titel":"Xenien, \\"Epigramme\\"","jahr":1796,"exemplare":3,"personen":["schiller","goethe"]}',
      ].join('\n');
      const { bad, summary } = await importText(db, text);
      assert.deepEqual(bad, []);
      assert.deepEqual(summary.counts.work, { new: 1, changed: 1, unchanged: 0 });
      assert.equal((await live('faust')).length, 3);
      const egmont = await live('egmont');
      assert.deepEqual(
        egmont.map((c) => c.nummer),
        [1, 2],
      );
      assert.match(egmont[1]!.signatur, /^Goe \d+ Eg\+2$/, 'a shelfmark as the work store makes it');
      assert.equal((await live('xenien')).length, 3);
      // Fewer copies than are free: the free ones with the highest numbers are withdrawn.
      await importText(db, text.replace('"exemplare":3', '"exemplare":1'));
      assert.equal((await live('xenien')).length, 1);
    });

    test('copies carry their item type: exported, imported, unknown types refused (ADR 0084)', async () => {
      const text = [
        '{"type":"copy","werk":"faust","nummer":7,"signatur":"Goe 7 Fa","barcode":"DVD-7","standort":"Mediathek","medientyp":"dvd"}',
        '{"type":"copy","werk":"faust","nummer":8,"signatur":"Goe 8 Fa","barcode":"X-8","standort":"Lesesaal","medientyp":"kassette"}',
        '{"type":"copy","werk":"faust","nummer":9,"signatur":"Goe 9 Fa","barcode":"X-9","standort":"Lesesaal"}',
      ].join('\n');
      const { bad } = await importText(db, text);
      assert.deepEqual(bad, [[2, 'medientyp: no item type kassette']]);
      const types = await db
        .selectFrom('copies')
        .select(['barcode', 'item_type'])
        .where('barcode', 'in', ['DVD-7', 'X-9'])
        .orderBy('barcode')
        .execute();
      assert.deepEqual(types, [
        { barcode: 'DVD-7', item_type: 'dvd' },
        { barcode: 'X-9', item_type: 'buch' },
      ]);
      // A record without the field keeps the copy's type; the export writes it.
      const again = await importText(
        db,
        '{"type":"copy","werk":"faust","nummer":7,"signatur":"Goe 7 Fa","barcode":"DVD-7","standort":"Mediathek"}',
      );
      assert.deepEqual(again.summary.counts.copy, { new: 0, changed: 0, unchanged: 1 });
      const exported = (await exportText(db)).split('\n').filter((l) => l.includes('"barcode":"DVD-7"'));
      assert.equal(exported.length, 1);
      assert.match(exported[0]!, /"medientyp":"dvd"/);
    });
  });
}

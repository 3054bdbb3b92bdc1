// Issue 22, item 2: a real harvester — Debian's HTTP::OAI::Harvester (libhttp-oai-perl),
// following the resumption tokens itself — harvests the demo catalogue over HTTP, in pages of
// 25 records; then staff write (an edit, a copy added, a deletion, a person renamed) and a
// harvest `from` the first one's responseDate gets exactly the records those writes changed,
// the deleted one as a deleted record (deletedRecord=persistent, ADR 0081). The clock is the
// test's: the catalogue is loaded, harvested and written at moments a minute apart.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createResourceApp } from '../../src/http/index.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { catalogueMigrations } from '../../src/catalogue/migrations/index.ts';
import { createStores, type CatalogueStores } from '../../src/catalogue/stores.ts';
import { loadDemo } from '../../src/catalogue/demo/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { migrateToLatest, openDatabase, type Database } from '../../src/storage/index.ts';
import { freePort } from '../support/process.ts';
import { skipUnless } from '../support/requirements.ts';
import { runCommand } from '../support/run-command.ts';

const HARVEST = path.join(import.meta.dirname, 'harvest.pl');

interface Harvest {
  readonly responseDate: string;
  /** identifier → [datestamp, status, title, barcodes]. */
  readonly records: Map<string, { datestamp: string; status: string; title: string; barcodes: string }>;
}

async function harvest(baseUrl: string, from?: string): Promise<Harvest> {
  const result = await runCommand('perl', [HARVEST, baseUrl, ...(from ? [from] : [])]);
  assert.equal(result.code, 0, result.stderr);
  const [first, ...lines] = result.stdout.trimEnd().split('\n');
  const responseDate = /^responseDate (\S+)$/.exec(first ?? '')?.[1];
  assert.ok(responseDate, result.stdout.slice(0, 200));
  const records = new Map<string, { datestamp: string; status: string; title: string; barcodes: string }>();
  for (const line of lines) {
    const [identifier, datestamp, status, title, barcodes] = line.split('\t');
    assert.ok(!records.has(identifier!), `${identifier} harvested twice`);
    records.set(identifier!, {
      datestamp: datestamp!,
      status: status!,
      title: title ?? '',
      barcodes: barcodes ?? '',
    });
  }
  return { responseDate, records };
}

describe('a real harvester, full then incremental', skipUnless('oai-harvester'), () => {
  let database: Database<DB>;
  let stores: CatalogueStores;
  let app: FastifyInstance;
  let baseUrl: string;
  let host: string;
  let clock = new Date('2026-03-01T08:00:00Z');
  const at = (iso: string) => (clock = new Date(iso));

  before(async () => {
    database = await openDatabase<DB>(':memory:');
    await migrateToLatest(database, catalogueMigrations);
    await loadDemo(database.db, clock);
    stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const catalogue = catalogueResources(stores, { now: () => clock, oaiPageSize: 25 });
    app = await createResourceApp({
      baseUrl: origin,
      trustProxy: [],
      resources: catalogue.resources,
      rewrites: catalogue.rewrites,
      passthrough: catalogue.passthrough,
      configure: catalogue.configure,
      displayErrors: false,
    });
    await app.listen({ port, host: '127.0.0.1' });
    baseUrl = `${origin}/oai`;
    host = '127.0.0.1';
  });
  after(async () => {
    await app?.close();
    await database?.close();
  });

  const idOf = (slug: string) => `oai:${host}:${slug}`;
  const workIdOf = async (slug: string) =>
    (await database.db.selectFrom('works').select('id').where('slug', '=', slug).executeTakeFirstOrThrow())
      .id;

  test('the full harvest has every work once; after writes, from = its responseDate gets exactly the changed ones', async () => {
    at('2026-03-01T09:00:00Z');
    const full = await harvest(baseUrl);
    const works = await database.db.selectFrom('works').select(['slug']).execute();
    assert.equal(full.records.size, works.length);
    assert.ok(full.records.size > 300, `${full.records.size} records`);
    assert.deepEqual(new Set(full.records.keys()), new Set(works.map((w) => idOf(w.slug))));
    assert.ok([...full.records.values()].every((r) => r.status === 'live'));
    assert.equal(full.responseDate, '2026-03-01T09:00:00Z');
    assert.equal(full.records.get(idOf('faust'))?.title, 'Faust');
    assert.match(full.records.get(idOf('faust'))?.barcodes ?? '', /^SM\d+-1,/);

    // A minute later, staff write: an edit, a copy added, a deletion, a person renamed.
    at('2026-03-01T09:01:00Z');
    const edited = await workIdOf('die-raeuber');
    const found = await stores.works.bySlug('die-raeuber');
    assert.ok(found && 'found' in found);
    const w = found.found;
    await stores.works.replace(edited, {
      titel: 'Die Räuber. Ein Schauspiel',
      jahr: w.jahr,
      exemplare: w.exemplare,
      personIds: w.personen.map((p) => p.id),
    });
    const withCopy = await workIdOf('faust');
    await stores.copies
      .ofWork(withCopy)
      .create({ signatur: 'Goe 10 Fa+9', barcode: 'OAI-NEU-1', standort: 'Magazin', vermisst: false });
    const unlent = await database.db
      .selectFrom('works')
      .select(['id', 'slug'])
      .where('deleted_at', 'is', null)
      .where('slug', 'not in', ['die-raeuber', 'faust'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('loans')
              .select('loans.id')
              .whereRef('loans.work_id', '=', 'works.id')
              .where('returned_at', 'is', null),
          ),
        ),
      )
      .orderBy('id')
      .executeTakeFirstOrThrow();
    assert.equal(await stores.works.delete(unlent.id), true);
    const kafka = await database.db
      .selectFrom('persons')
      .select(['id', 'vorname'])
      .where('slug', '=', 'kafka')
      .executeTakeFirstOrThrow();
    await stores.persons.replace(kafka.id, { vorname: kafka.vorname, nachname: 'Kafka (Prag)' });
    const kafkasWorks = await database.db
      .selectFrom('person_work')
      .innerJoin('works', 'works.id', 'person_work.work_id')
      .select('works.slug')
      .where('person_work.person_id', '=', kafka.id)
      .where('works.deleted_at', 'is', null)
      .execute();
    assert.ok(kafkasWorks.length > 0);

    at('2026-03-01T10:00:00Z');
    const incremental = await harvest(baseUrl, full.responseDate);
    const expected = new Set([
      idOf('die-raeuber'),
      idOf('faust'),
      idOf(unlent.slug),
      ...kafkasWorks.map((k) => idOf(k.slug)),
    ]);
    assert.deepEqual(new Set(incremental.records.keys()), expected);
    assert.equal(incremental.records.get(idOf('die-raeuber'))?.title, 'Die Räuber. Ein Schauspiel');
    assert.match(incremental.records.get(idOf('faust'))?.barcodes ?? '', /,OAI-NEU-1$/);
    assert.equal(incremental.records.get(idOf(unlent.slug))?.status, 'deleted');
    for (const r of incremental.records.values()) assert.equal(r.datestamp, '2026-03-01T09:01:00Z');

    // Nothing changed since: the next incremental harvest finds nothing (noRecordsMatch).
    const nothing = await runCommand('perl', [HARVEST, baseUrl, incremental.responseDate]);
    assert.equal(nothing.code, 0, nothing.stderr);
    assert.equal(nothing.stdout.trimEnd().split('\n').length, 1, nothing.stdout);
  });
});

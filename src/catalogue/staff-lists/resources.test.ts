// The staff lists (ADR 0092) on every engine: staff only; the patrons are the persons with an
// account (never an author without one), found by name or card number; the hold shelf lists the
// copies kept, for whom and until when, flagging the ones past their date; the overdue loans
// filter by days overdue and count them as the check-in does; every list pages by keyset with
// links that keep its filters, counts its rows, and is valid against its schemas.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { HttpError } from '../shared/index.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import {
  bodyOf,
  MEMBER,
  representationOf,
  run,
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { defaultCardNumber } from '../accounts/index.ts';
import { holdShelfResource, overdueResource, patronsResource } from './resources.ts';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();
const stripXmlDecl = (x: string) => x.replace(/^<\?xml[^>]*>\n/, '');

type Json = Record<string, unknown> & { naechste?: string; vorige?: string };

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`the staff lists on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let patrons: ResourceDefinition;
    let shelf: ResourceDefinition;
    let overdue: ResourceDefinition;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      patrons = patronsResource(stores.staffLists);
      shelf = holdShelfResource(stores.staffLists, { now: () => NOW });
      overdue = overdueResource(stores.staffLists, { now: () => NOW });
    });
    after(() => database?.dispose());

    async function patron(vorname: string, nachname: string) {
      const i = ++n;
      const person = await stores.persons.create({ vorname, nachname });
      await stores.accounts.add({ personId: person.id, username: `liste${i}`, passwordHash: '!' });
      return { ...person, card: defaultCardNumber(person.id) };
    }

    async function work(titel: string) {
      const w = await stores.works.create({ titel: `${titel} ${++n}`, exemplare: 1 });
      const copy = await database.db
        .selectFrom('copies')
        .select(['id', 'barcode'])
        .where('work_id', '=', w.id)
        .executeTakeFirstOrThrow();
      return { ...w, copy };
    }

    /** An open loan due `dueIn` days from NOW (negative: overdue). */
    async function loan(personId: number, dueIn: number) {
      const w = await work('Leihwerk');
      const row = await database.db
        .insertInto('loans')
        .values({
          person_id: personId,
          work_id: w.id,
          copy_id: w.copy.id,
          borrowed_at: at(dueIn - 28),
          due_at: at(dueIn),
          returned_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, work: w };
    }

    const json = async (resource: ResourceDefinition, query = '') => {
      const result = await run(resource, 'GET', { query, format: 'json' });
      return JSON.parse(bodyOf(representationOf(result), 'json', { query })) as Json;
    };
    const valid = async (
      resource: ResourceDefinition,
      schema: Parameters<typeof jsonErrors>[0],
      query = '',
    ) => {
      const rep = representationOf(await run(resource, 'GET', { query }));
      assert.equal(jsonErrors(schema, JSON.parse(bodyOf(rep, 'json', { query }))), '', `${schema} JSON`);
      assert.equal(await xmlErrors(schema, stripXmlDecl(bodyOf(rep, 'xml', { query }))), '', `${schema} XML`);
      return bodyOf(rep, 'html', { query });
    };
    /** Every page of a list from `query`, following `naechste`. */
    async function walk(resource: ResourceDefinition, query: string, key: string): Promise<Json[]> {
      const items: Json[] = [];
      let q: string | undefined = query;
      for (let pages = 0; q !== undefined && pages < 50; pages++) {
        const page = await json(resource, q);
        items.push(...(page[key] as Json[]));
        q = page.naechste ? new URL(page.naechste).search.slice(1) : undefined;
      }
      return items;
    }

    test('staff only: members and anonymous clients get 403', async () => {
      for (const resource of [patrons, shelf, overdue])
        for (const user of [MEMBER, null]) {
          const result = await run(resource, 'GET', { user });
          assert.ok(result instanceof HttpError);
          assert.equal(result.status, 403, resource.name);
        }
    });

    test('patrons: persons with an account only, by name, searched by name or card number', async () => {
      const author = await stores.persons.create({ vorname: 'Theodor', nachname: 'Zettelmann' });
      const a = await patron('Zora', 'Zettelmann');
      const b = await patron('Zacharias', 'Zettelmann');
      await loan(a.id, 5);
      const found = await json(patrons, 'q=zettelmann');
      const rows = found.leser as Json[];
      assert.deepEqual(
        rows.map((r) => r.vorname),
        ['Zacharias', 'Zora'],
      );
      assert.ok(!rows.some((r) => String(r.url).endsWith(`/${author.slug}`)), 'no author without an account');
      assert.equal(found.gesamt, 2);
      assert.deepEqual(rows[1]!.ausleihen, { url: `https://library.example/ausleihen/${a.id}`, anzahl: 1 });
      assert.equal(rows[1]!.theke, `https://library.example/theke?ausweis=${a.card}`);
      const byCard = (await json(patrons, `q=${b.card.toLowerCase()}`)).leser as Json[];
      assert.deepEqual(
        byCard.map((r) => r.ausweis),
        [b.card],
      );
      const html = await valid(patrons, 'patrons', 'q=zettelmann');
      assert.match(html, /<h1>Leserinnen und Leser zu „zettelmann“<\/h1>/);
      assert.match(html, new RegExp(`href="/theke\\?ausweis=${a.card}"`));
      assert.equal(((await json(patrons, 'q=%25')).leser as Json[]).length, 0, 'LIKE wildcards are literal');
    });

    test('patrons page by keyset: every patron once, links keep the search and size', async () => {
      for (const name of ['Pia', 'Paul', 'Petra', 'Peer', 'Pius']) await patron(name, 'Seitenweise');
      const first = await json(patrons, 'q=seitenweise&anzahl=2');
      assert.match(
        first.naechste ?? '',
        /^https:\/\/library\.example\/leser\?q=seitenweise&nach=[\w-]+&anzahl=2$/,
      );
      assert.equal(first.vorige, undefined);
      const all = await walk(patrons, 'q=seitenweise&anzahl=2', 'leser');
      assert.deepEqual(
        all.map((r) => r.vorname),
        ['Paul', 'Peer', 'Petra', 'Pia', 'Pius'],
      );
      const second = await json(patrons, new URL(first.naechste!).search.slice(1));
      assert.ok(second.vorige, 'the second page links back');
      const back = await json(patrons, new URL(second.vorige!).search.slice(1));
      assert.deepEqual(back.leser, first.leser);
      const bad = await run(patrons, 'GET', { query: 'nach=kaputt!' });
      assert.equal(statusOf(bad), 400);
    });

    test('the hold shelf: which copy, for whom, until when; past the date flagged; ended holds not', async () => {
      const anna = await patron('Anna', 'Regal');
      const items = [
        { expires: 3, ended: false },
        { expires: -1, ended: false },
        { expires: 5, ended: true },
      ];
      const made: { barcode: string; id: number }[] = [];
      for (const item of items) {
        const w = await work('Regalwerk');
        const hold = await database.db
          .insertInto('holds')
          .values({
            person_id: anna.id,
            work_id: w.id,
            placed_at: at(-10),
            copy_id: item.ended ? null : w.copy.id,
            ready_at: at(item.expires - 7),
            expires_at: at(item.expires),
            ended_at: item.ended ? at(-1) : null,
            end_reason: item.ended ? 'cancelled' : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        made.push({ barcode: w.copy.barcode, id: hold.id });
      }
      const page = await json(shelf);
      const rows = (page.exemplar as Json[]).filter((r) => (r.person as Json).name === 'Anna Regal');
      assert.deepEqual(
        rows.map((r) => [r.barcode, r.abgelaufen, r.abholbarBis]),
        [
          [made[1]!.barcode, true, at(-1)],
          [made[0]!.barcode, false, at(3)],
        ],
      );
      assert.equal(
        rows[0]!.vormerkung,
        `https://library.example/personen/${anna.slug}/vormerkungen/${made[1]!.id}`,
      );
      const html = await valid(shelf, 'hold-shelf');
      assert.match(html, /<strong class="overdue">abgelaufen<\/strong>/);
      assert.match(html, /Abholbar bis/);
    });

    test('overdue loans: at least `tage` days overdue, longest first, days as the check-in counts them', async () => {
      const ben = await patron('Ben', 'Mahnung');
      const late20 = await loan(ben.id, -20);
      const late3 = await loan(ben.id, -2.5); // 2.5 days: counts as 3
      await loan(ben.id, 4); // not due yet
      const returned = await loan(ben.id, -30);
      await database.db
        .updateTable('loans')
        .set({ returned_at: at(-1) })
        .where('id', '=', returned.id)
        .execute();
      const mine = (page: Json) =>
        (page.ausleihe as Json[]).filter((r) => (r.person as Json).name === 'Ben Mahnung');
      const all = mine(await json(overdue));
      assert.deepEqual(
        all.map((r) => [r.url, r.tageUeberfaellig]),
        [
          [`https://library.example/ausleihen/${ben.id}/${late20.id}`, 20],
          [`https://library.example/ausleihen/${ben.id}/${late3.id}`, 3],
        ],
      );
      assert.equal((all[0]!.person as Json).ausweis, ben.card);
      assert.deepEqual(
        mine(await json(overdue, 'tage=3')).map((r) => r.tageUeberfaellig),
        [20, 3],
      );
      assert.deepEqual(
        mine(await json(overdue, 'tage=4')).map((r) => r.tageUeberfaellig),
        [20],
      );
      const filtered = await json(overdue, 'tage=4&anzahl=1');
      assert.equal(filtered.mindestensTage, 4);
      if (filtered.naechste)
        assert.match(filtered.naechste, /\/ausleihen\/ueberfaellig\?tage=4&nach=[\w-]+&anzahl=1$/);
      for (const bad of ['0', '-1', 'drei', '99999'])
        assert.equal(statusOf(await run(overdue, 'GET', { query: `tage=${bad}` })), 400, bad);
      const html = await valid(overdue, 'overdue-loans', 'tage=3');
      assert.match(html, /<h1>Überfällige Ausleihen \(mindestens 3 Tage\)<\/h1>/);
      const en = { query: 'tage=3', lang: 'en' as const };
      const english = bodyOf(representationOf(await run(overdue, 'GET', en)), 'html', en);
      assert.match(english, /<html lang="en">/);
      assert.match(english, /<h1>Overdue loans \(at least 3 days\)<\/h1>/);
      assert.match(english, /<th scope="col">Days overdue<\/th>/);
      assert.match(html, /<input id="tage" name="tage" type="number" min="1" max="3650" value="3"/);
    });
  });
}

// The desk's check-in by barcode (`/rueckgabe`, ADR 0061) on every engine: staff only; a lent
// copy's barcode returns its open loan (API 200 with the loan's URL, form 303 to the page that
// shows it); unknown barcode 422, a copy not on loan 409; every representation schema-valid.
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
import { checkInResource } from './resource.ts';
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { validateHtml } from '../../../test/support/html.ts';
import { skipUnless } from '../../../test/support/requirements.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`check-in by barcode on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let desk: ResourceDefinition;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      desk = checkInResource(stores.checkIns, stores.loans);
    });
    after(() => database?.dispose());

    /** A work with a copy of our own (barcode `B-n`), lent to a new person through that copy. */
    async function lentCopy(lend = true) {
      const i = ++n;
      const person = await stores.persons.create({ vorname: 'Leserin', nachname: `Theke ${i}` });
      const work = await stores.works.create({ titel: `Thekenbuch ${i}`, exemplare: 1 });
      const at = new Date().toISOString();
      const copy = await database.db
        .insertInto('copies')
        .values({
          work_id: work.id,
          nummer: 99,
          signatur: `Th ${i}`,
          barcode: `B-${i}`,
          standort: 'Theke',
          missing_since: null,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!lend) return { barcode: `B-${i}`, person: person.id, loan: 0 };
      const borrowed = await stores.loans.borrow(person.id, { id: work.id });
      assert.ok(borrowed.ok, JSON.stringify(borrowed));
      await database.db
        .updateTable('loans')
        .set({ copy_id: copy.id })
        .where('id', '=', borrowed.loan.id)
        .execute();
      return { barcode: `B-${i}`, person: person.id, loan: borrowed.loan.id };
    }

    test('staff only: members and anonymous clients get 403 on GET and POST; nothing is returned', async () => {
      const { barcode, person, loan } = await lentCopy();
      for (const user of [MEMBER, null]) {
        assert.equal(statusOf(await run(desk, 'GET', { user })), 403);
        assert.equal(statusOf(await run(desk, 'POST', { user, body: { barcode } })), 403);
      }
      assert.equal((await stores.loans.loan(person, loan))?.returnedAt, null);
    });

    test('POST a lent copy’s barcode (API): 200, the loan returned, its URL in the body and Link', async () => {
      const { barcode, person, loan } = await lentCopy();
      const result = await run(desk, 'POST', { body: { barcode: ` ${barcode}\n` } });
      assert.equal(statusOf(result), 200);
      const rep = representationOf(result);
      const json = JSON.parse(bodyOf(rep, 'json')) as {
        ausleihe: { url: string; zurueckgegeben: string | null };
      };
      assert.equal(jsonErrors('check-in', json), '');
      assert.equal(new URL(json.ausleihe.url).pathname, `/ausleihen/${person}/${loan}`);
      assert.ok(json.ausleihe.zurueckgegeben);
      assert.deepEqual(rep.links, [{ rel: 'related', path: `/ausleihen/${person}/${loan}` }]);
      assert.equal(await xmlErrors('check-in', bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
      assert.ok((await stores.loans.loan(person, loan))?.returnedAt instanceof Date, 'returned');
      // Scanned again: nothing is on loan any more.
      const again = await run(desk, 'POST', { body: { barcode } });
      assert.ok(again instanceof HttpError);
      assert.equal(again.status, 409);
    });

    test('a form POST gets 303 to the check-in page, which shows the returned loan and links it', async () => {
      const { barcode, person, loan } = await lentCopy();
      const body = { barcode, _csrf: 't' };
      assert.deepEqual(await run(desk, 'POST', { body, format: 'html', bodyType: 'form' }), {
        type: 'redirect',
        status: 303,
        path: `/rueckgabe?barcode=${barcode}`,
      });
      const query = `barcode=${barcode}`;
      const page = bodyOf(representationOf(await run(desk, 'GET', { query, format: 'html' })), 'html', {
        query,
      });
      assert.match(page, /ist zurückgenommen/);
      // The borrower's loans are linked; the returned loan's own URL (which answers 410) is not.
      assert.match(page, new RegExp(`href="/ausleihen/${person}"`));
      assert.doesNotMatch(page, new RegExp(`/ausleihen/${person}/${loan}`));
      assert.match(page, /Zurück ins Regal/);
      assert.match(page, /<form class="check-in" method="post" action="\/rueckgabe">/);
    });

    test('unknown or missing barcode: 422 naming the field (the form again for browsers); not on loan: 409', async () => {
      for (const body of [{ barcode: 'GIBT-ES-NICHT' }, { barcode: '' }, {}]) {
        const error = await run(desk, 'POST', { body });
        assert.ok(error instanceof HttpError, JSON.stringify(body));
        assert.equal(error.status, 422);
        assert.equal(error.extensions.errors?.[0]?.field, 'barcode');
      }
      const form = await run(desk, 'POST', {
        body: { barcode: 'NEIN', _csrf: 't' },
        format: 'html',
        bodyType: 'form',
      });
      assert.equal(statusOf(form), 422);
      assert.match(bodyOf(representationOf(form), 'html'), /Kein Exemplar hat diesen Barcode/);
      const { barcode } = await lentCopy(false);
      const idle = await run(desk, 'POST', { body: { barcode } });
      assert.ok(idle instanceof HttpError);
      assert.equal(idle.code, 'SHELFMARK_CONFLICT');
      assert.match(idle.localDetail?.de ?? '', /nicht ausgeliehen/);
      assert.equal(statusOf(await run(desk, 'GET', { query: 'barcode=GIBT-ES-NICHT' })), 422);
    });

    test('the pages are valid HTML5 (Nu checker)', skipUnless('java'), async () => {
      const { barcode } = await lentCopy();
      assert.equal(statusOf(await run(desk, 'POST', { body: { barcode } })), 200);
      const query = `barcode=${barcode}`;
      const pages = [
        { name: 'form', html: bodyOf(representationOf(await run(desk, 'GET', { format: 'html' })), 'html') },
        {
          name: 'result',
          html: bodyOf(representationOf(await run(desk, 'GET', { query, format: 'html' })), 'html', {
            query,
          }),
        },
        {
          name: 'problem',
          html: bodyOf(
            representationOf(
              await run(desk, 'POST', { body: { barcode: 'X' }, format: 'html', bodyType: 'form' }),
            ),
            'html',
          ),
        },
      ];
      const reports = await validateHtml(pages);
      assert.deepEqual(
        reports.filter((r) => r.messages.length > 0),
        [],
      );
    });

    test('check-in says what next: overdue by how many days, to the hold shelf for whom until when', async () => {
      const { barcode, person, loan } = await lentCopy();
      const { workId } = await database.db
        .selectFrom('loans')
        .select('work_id as workId')
        .where('id', '=', loan)
        .executeTakeFirstOrThrow();
      const dayMs = 24 * 60 * 60 * 1000;
      await database.db
        .updateTable('loans')
        .set({ due_at: new Date(Date.now() - 12 * dayMs + 60_000).toISOString() })
        .where('id', '=', loan)
        .execute();
      // The work's other copy is missing: none is free, so Anna may place a hold.
      await database.db
        .updateTable('copies')
        .set({ missing_since: new Date().toISOString() })
        .where('work_id', '=', workId)
        .where('barcode', '!=', barcode)
        .execute();
      const anna = await stores.persons.create({ vorname: 'Anna', nachname: `Berger ${person}` });
      const placed = await stores.holds.place(anna.id, { id: workId });
      assert.ok(placed.ok, JSON.stringify(placed));
      const result = await run(desk, 'POST', { body: { barcode } });
      const rep = representationOf(result);
      const json = JSON.parse(bodyOf(rep, 'json')) as {
        ausleihe: { tageUeberfaellig: number };
        abholregal: { person: { name: string }; abholbarBis: string } | null;
      };
      assert.equal(jsonErrors('check-in', json), '');
      assert.equal(await xmlErrors('check-in', bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
      assert.equal(json.ausleihe.tageUeberfaellig, 12);
      assert.equal(json.abholregal?.person.name, `Anna Berger ${person}`);
      assert.ok(json.abholregal && new Date(json.abholregal.abholbarBis) > new Date());
      const page = bodyOf(rep, 'html');
      assert.match(page, /12 Tage überfällig/);
      assert.match(page, new RegExp(`Ins Abholregal für Anna Berger ${person}`));
      assert.match(page, /Abholbar bis <time datetime="/);
    });

    test('a refused form check-in (not on loan) is the page again: 409, the message, the field focused', async () => {
      const { barcode } = await lentCopy(false);
      const form = await run(desk, 'POST', {
        body: { barcode, _csrf: 't' },
        format: 'html',
        bodyType: 'form',
      });
      assert.equal(statusOf(form), 409);
      const page = bodyOf(representationOf(form), 'html');
      assert.match(page, /nicht ausgeliehen/);
      assert.match(page, /<input\s+id="barcode"[^>]*autofocus/);
      assert.doesNotMatch(page, /Zur Startseite/);
    });

    test('the bare page: the form; XML and JSON empty but valid', async () => {
      const rep = representationOf(await run(desk, 'GET', {}));
      assert.equal(jsonErrors('check-in', JSON.parse(bodyOf(rep, 'json'))), '');
      assert.equal(await xmlErrors('check-in', bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
      assert.match(bodyOf(rep, 'html'), /<input\s+id="barcode"/);
    });
  });
}

// The desk (`/theke`, ADR 0082) on every engine: staff only; a patron found by card number or
// name; scanned barcodes lend exactly those copies; a kept copy goes to its holder only; every
// refusal of a browser's scan is the desk again (409/422, message, field focused), API clients
// get problem details with codes; the loans' POST lends a copy named by `exemplar`; the staff
// button of a work page lends to a named patron, never to the librarian. Schema-valid.
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
  STAFF,
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { loansResource, borrowButton } from '../loans/index.ts';
import type { Markup } from '../../http/representation/markup.ts';
import { validateHtml } from '../../../test/support/html.ts';
import { skipUnless } from '../../../test/support/requirements.ts';
import { deskResource } from './resource.ts';
import { defaultCardNumber } from '../accounts/index.ts';

const render = (m: Markup): string => m.toString();
const stripXmlDecl = (x: string) => x.replace(/^<\?xml[^>]*>\n/, '');

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`the desk on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let desk: ResourceDefinition;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      desk = deskResource(stores.desk, stores.loans);
    });
    after(() => database?.dispose());

    /** A patron with an account (card number the default one). */
    async function patron(vorname: string) {
      const i = ++n;
      const person = await stores.persons.create({ vorname, nachname: `Leser ${i}` });
      await stores.accounts.add({ personId: person.id, username: `leser${i}`, passwordHash: '!' });
      return { id: person.id, card: defaultCardNumber(person.id), name: `${vorname} Leser ${i}` };
    }

    /** A work with `count` copies; their barcodes, lowest number first. */
    async function work(count: number) {
      const w = await stores.works.create({ titel: `Thekenwerk ${++n}`, exemplare: count });
      const copies = await database.db
        .selectFrom('copies')
        .select(['id', 'barcode', 'nummer'])
        .where('work_id', '=', w.id)
        .orderBy('nummer')
        .execute();
      return { id: w.id, slug: w.slug, copies };
    }

    const copyOfLoan = async (loanId: number) =>
      (
        await database.db
          .selectFrom('loans')
          .select('copy_id')
          .where('id', '=', loanId)
          .executeTakeFirstOrThrow()
      ).copy_id;

    test('staff only: members and anonymous clients get 403; nothing is lent', async () => {
      const ben = await patron('Ben');
      const w = await work(1);
      for (const user of [MEMBER, null]) {
        assert.equal(statusOf(await run(desk, 'GET', { user })), 403);
        const body = { ausweis: ben.card, barcode: w.copies[0]!.barcode };
        assert.equal(statusOf(await run(desk, 'POST', { user, body })), 403);
      }
      assert.equal((await stores.loans.currentLoans(ben.id)).items.length, 0);
    });

    test('two scanned barcodes lend exactly those copies (not the first free ones)', async () => {
      const ben = await patron('Ben');
      const a = await work(3);
      const b = await work(2);
      const scans = [a.copies[2]!, b.copies[1]!];
      for (const copy of scans) {
        const result = await run(desk, 'POST', {
          body: { ausweis: ` ${ben.card}\n`, barcode: `${copy.barcode}\n` },
        });
        assert.equal(statusOf(result), 201);
        assert.ok(!(result instanceof HttpError) && result.type === 'representation');
        assert.match(result.location ?? '', new RegExp(`^/ausleihen/${ben.id}/\\d+$`));
      }
      const loans = (await stores.loans.currentLoans(ben.id)).items;
      assert.deepEqual(
        loans.map((l) => l.copy?.barcode),
        scans.map((c) => c.barcode),
      );
      for (const l of loans) assert.equal(await copyOfLoan(l.id), l.copy?.id);
    });

    test('a browser: 303 back to the desk for the next scan, which confirms the loan and shows the loans', async () => {
      const ben = await patron('Ben');
      const w = await work(2);
      const copy = w.copies[1]!;
      const result = await run(desk, 'POST', {
        body: { ausweis: ben.card, barcode: copy.barcode, _csrf: 't' },
        format: 'html',
        bodyType: 'form',
      });
      assert.ok(!(result instanceof HttpError) && result.type === 'redirect');
      assert.equal(result.status, 303);
      const [loan] = (await stores.loans.currentLoans(ben.id)).items;
      assert.equal(result.path, `/theke?ausweis=${ben.card}&ausgeliehen=${loan!.id}`);
      const query = result.path.split('?')[1]!;
      const rep = representationOf(await run(desk, 'GET', { query, format: 'html' }));
      const page = bodyOf(rep, 'html', { query });
      assert.match(page, new RegExp(`Ausleihe an ${ben.name}`));
      assert.match(page, new RegExp(`\\(${copy.barcode}\\) ist ausgeliehen`));
      assert.match(page, /<input\s+id="barcode"[^>]*autofocus/);
      assert.match(page, new RegExp(`name="ausweis" value="${ben.card}"`));
      const json = JSON.parse(bodyOf(rep, 'json', { query })) as unknown;
      assert.equal(jsonErrors('desk', json), '');
      assert.equal(await xmlErrors('desk', stripXmlDecl(bodyOf(rep, 'xml', { query }))), '');
    });

    test('a refused scan is the desk again: status, message, the field focused; API: problem codes', async () => {
      const ben = await patron('Ben');
      const cara = await patron('Cara');
      const w = await work(1);
      const copy = w.copies[0]!;
      assert.equal(
        statusOf(await run(desk, 'POST', { body: { ausweis: cara.card, barcode: copy.barcode } })),
        201,
      );
      const form = (body: Record<string, string>) =>
        run(desk, 'POST', { body: { ...body, _csrf: 't' }, format: 'html', bodyType: 'form' });
      const cases = [
        {
          body: { ausweis: ben.card, barcode: copy.barcode },
          status: 409,
          text: /ist ausgeliehen; bitte zuerst/,
        },
        {
          body: { ausweis: ben.card, barcode: 'GIBT-ES-NICHT' },
          status: 422,
          text: /Kein Exemplar hat diesen Barcode/,
        },
        {
          body: { ausweis: 'L999999999', barcode: copy.barcode },
          status: 422,
          text: /Kein Konto hat diese Ausweisnummer/,
        },
      ];
      for (const c of cases) {
        const result = await form(c.body);
        assert.equal(statusOf(result), c.status, JSON.stringify(c.body));
        const page = bodyOf(representationOf(result), 'html');
        assert.match(page, c.text);
        assert.match(page, /<input\s+id="(barcode|ausweis)"[^>]*autofocus/);
        assert.doesNotMatch(page, /Zur Startseite/);
      }
      const api = await run(desk, 'POST', { body: { ausweis: ben.card, barcode: copy.barcode } });
      assert.ok(api instanceof HttpError);
      assert.equal(api.code, 'SHELFMARK_COPY_ON_LOAN');
      const unknown = await run(desk, 'POST', { body: { ausweis: ben.card, barcode: 'NEIN' } });
      assert.ok(unknown instanceof HttpError);
      assert.deepEqual(
        unknown.extensions.errors?.map((e) => e.field),
        ['barcode'],
      );
      assert.equal((await stores.loans.currentLoans(ben.id)).items.length, 0, 'nothing lent to Ben');
    });

    test('a copy kept on the hold shelf goes to its holder only', async () => {
      const ben = await patron('Ben');
      const anna = await patron('Anna');
      const cara = await patron('Cara');
      const w = await work(1);
      const copy = w.copies[0]!;
      assert.equal(
        statusOf(await run(desk, 'POST', { body: { ausweis: cara.card, barcode: copy.barcode } })),
        201,
      );
      assert.ok((await stores.holds.place(anna.id, { id: w.id })).ok);
      const [caraLoan] = (await stores.loans.currentLoans(cara.id)).items;
      assert.ok(await stores.loans.returnLoan(cara.id, caraLoan!.id));
      const refused = await run(desk, 'POST', { body: { ausweis: ben.card, barcode: copy.barcode } });
      assert.ok(refused instanceof HttpError);
      assert.equal(refused.code, 'SHELFMARK_COPY_HELD');
      const hers = await run(desk, 'POST', { body: { ausweis: anna.card, barcode: copy.barcode } });
      assert.equal(statusOf(hers), 201);
      assert.equal((await stores.holds.holdsOf(anna.id)).items.length, 0, 'her hold is fulfilled');
    });

    test('a card number or a name: the patron, or the matches; XML and JSON valid', async () => {
      const ben = await patron('Bernadette');
      const byCard = representationOf(
        await run(desk, 'GET', { query: `ausweis=${ben.card}`, format: 'html' }),
      );
      assert.match(bodyOf(byCard, 'html'), new RegExp(`Ausleihe an ${ben.name}`));
      const query = `ausweis=${encodeURIComponent('bernad')}`;
      const byName = representationOf(await run(desk, 'GET', { query }));
      const json = JSON.parse(bodyOf(byName, 'json', { query })) as { treffer: { ausweis: string }[] };
      assert.equal(jsonErrors('desk', json), '');
      assert.deepEqual(
        json.treffer.map((t) => t.ausweis),
        [ben.card],
      );
      assert.equal(await xmlErrors('desk', stripXmlDecl(bodyOf(byName, 'xml', { query }))), '');
      const none = representationOf(await run(desk, 'GET', { query: 'ausweis=zzzz', format: 'html' }));
      assert.match(bodyOf(none, 'html', { query: 'ausweis=zzzz' }), /Kein Ausweis und kein Name passt/);
      const bare = representationOf(await run(desk, 'GET', {}));
      assert.equal(jsonErrors('desk', JSON.parse(bodyOf(bare, 'json'))), '');
      assert.equal(await xmlErrors('desk', stripXmlDecl(bodyOf(bare, 'xml'))), '');
    });

    test('the work page’s staff button lends to the patron named, never to the librarian', async () => {
      const ben = await patron('Ben');
      const w = await work(1);
      const button = render(
        borrowButton({ slug: w.slug, verfuegbar: 1 }, fakeContext({ user: STAFF, format: 'html' })),
      );
      assert.match(button, /action="\/theke"/);
      assert.doesNotMatch(button, new RegExp(`/ausleihen/${STAFF.id}`));
      assert.match(button, /name="ausweis"/);
      const result = await run(desk, 'POST', { body: { ausweis: ben.card, werk: w.slug } });
      assert.equal(statusOf(result), 201);
      assert.equal((await stores.loans.currentLoans(ben.id)).items.length, 1);
      const member = render(
        borrowButton({ slug: w.slug, verfuegbar: 1 }, fakeContext({ user: MEMBER, format: 'html' })),
      );
      assert.match(member, new RegExp(`action="/ausleihen/${MEMBER.id}"`));
    });

    test('API: POST /ausleihen/{user} lends the copy its `exemplar` names (URL or barcode)', async () => {
      const ben = await patron('Ben');
      const w = await work(3);
      const loans = loansResource(stores.loans, { copies: stores.desk });
      const query = `benutzer=${ben.id}`;
      const byUrl = await run(loans, 'POST', {
        query,
        body: { exemplar: `https://library.example/werke/${w.slug}/exemplare/${w.copies[2]!.nummer}` },
      });
      assert.equal(statusOf(byUrl), 201);
      const other = await work(2);
      const byBarcode = await run(loans, 'POST', { query, body: { exemplar: other.copies[1]!.barcode } });
      assert.equal(statusOf(byBarcode), 201);
      assert.deepEqual(
        (await stores.loans.currentLoans(ben.id)).items.map((l) => l.copy?.barcode),
        [w.copies[2]!.barcode, other.copies[1]!.barcode],
      );
      const unknown = await run(loans, 'POST', { query, body: { exemplar: 'NEIN' } });
      assert.ok(unknown instanceof HttpError);
      assert.deepEqual(
        unknown.extensions.errors?.map((e) => e.field),
        ['exemplar'],
      );
    });

    test('the desk pages are valid HTML5 (Nu checker)', skipUnless('java'), async () => {
      const ben = await patron('Ben');
      const w = await work(1);
      const pages = [
        {
          name: 'card form',
          html: bodyOf(representationOf(await run(desk, 'GET', { format: 'html' })), 'html'),
        },
        {
          name: 'patron',
          html: bodyOf(
            representationOf(await run(desk, 'GET', { query: `ausweis=${ben.card}`, format: 'html' })),
            'html',
          ),
        },
        {
          name: 'matches',
          html: bodyOf(
            representationOf(await run(desk, 'GET', { query: 'ausweis=Ben', format: 'html' })),
            'html',
          ),
        },
        {
          name: 'refused',
          html: bodyOf(
            representationOf(
              await run(desk, 'POST', {
                body: { ausweis: ben.card, barcode: 'X', _csrf: 't' },
                format: 'html',
                bodyType: 'form',
              }),
            ),
            'html',
          ),
        },
        {
          name: 'staff button',
          html: `<!DOCTYPE html><html lang="de"><head><title>t</title></head><body>${render(
            borrowButton({ slug: w.slug, verfuegbar: 1 }, fakeContext({ user: STAFF, format: 'html' })),
          )}</body></html>`,
        },
      ];
      const reports = await validateHtml(pages);
      assert.deepEqual(
        reports.filter((r) => r.messages.length > 0),
        [],
      );
    });
  });
}

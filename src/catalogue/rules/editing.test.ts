// Staff's editing of item types and closed days over HTTP (ADR 0093), on SQLite and PostgreSQL:
// staff only; create, replace, patch and delete with preconditions; 422 for bad fields; a type
// in use is 409 SHELFMARK_ITEM_TYPE_IN_USE; the lending transaction reads what was edited (a
// new type's loan period, a closed day added over HTTP moves a due date); forms answer 303.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueResources } from '../index.ts';
import { accountSecurity, catalogueApp, logIn } from '../../../test/kit/catalogue/app.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { createLoanStore } from '../loans/index.ts';
import type { LoanStore } from '../loans/index.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { skipUnless } from '../../../test/support/requirements.ts';
import { htmlReport } from '../../../test/kit/html-report.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const ORIGIN = 'https://library.example';
const basic = (user: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${user}-pass`).toString('base64')}`,
});
const STAFF = basic('personal');
const stripDeclaration = (body: string) => body.replace(/^<\?xml[^>]*>\n?/, '');

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`editing the circulation rules on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let loans: LoanStore;
    let app: FastifyInstance;
    let memberId: number;
    const clock = new Date('2026-12-01T10:00:00.000Z');

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      loans = createLoanStore(database.db, { capabilities: database.capabilities, now: () => clock });
      for (const [name, role] of [
        ['personal', 'staff'],
        ['mia', 'member'],
      ] as const) {
        const p = await stores.persons.create({ vorname: name, nachname: 'Test' });
        await stores.accounts.add({
          personId: p.id,
          username: name,
          passwordHash: `plain:${name}-pass`,
          role,
        });
        if (name === 'mia') memberId = p.id;
      }
      const catalogue = catalogueResources(stores, {});
      app = await catalogueApp(catalogue, { baseUrl: ORIGIN, ...accountSecurity(stores.accounts) });
    });
    after(async () => {
      await app?.close();
      await database?.dispose();
    });

    const send = (
      method: string,
      url: string,
      headers: Record<string, string> = STAFF,
      body?: unknown,
      type = 'application/json',
    ) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: {
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': type }),
          ...headers,
        },
        ...(body !== undefined && { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });

    test('staff only: members and anonymous clients get 403 for reads and writes', async () => {
      for (const url of [
        '/ausleihregeln/medientypen',
        '/ausleihregeln/medientypen/buch',
        '/ausleihregeln/schliesstage',
      ]) {
        assert.equal((await send('GET', url, basic('mia'))).statusCode, 403, url);
        assert.equal((await send('GET', url, {})).statusCode, 403, url);
      }
      const refused = await send('POST', '/ausleihregeln/schliesstage', basic('mia'), { tag: '2026-12-24' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'SHELFMARK_FORBIDDEN');
      assert.deepEqual(await stores.rules.closedDays(), [], 'nothing written');
    });

    test('item types: the seeded ones listed; create, replace with If-Match, patch, refuse bad fields', async () => {
      const list = await send('GET', '/ausleihregeln/medientypen');
      assert.equal(list.statusCode, 200);
      assert.equal(jsonErrors('item-types', list.json()), '');
      assert.deepEqual(
        list.json().medientypen.map((t: { code: string }) => t.code),
        ['buch', 'dvd', 'praesenz'],
      );
      const created = await send('POST', '/ausleihregeln/medientypen', STAFF, {
        code: 'zeitschrift',
        bezeichnung: 'Zeitschrift',
        bezeichnungEn: 'Magazine',
        ausleihbar: true,
        leihfristTage: 10,
        verlaengerungen: 0,
        hoechstens: null,
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.headers.location, `${ORIGIN}/ausleihregeln/medientypen/zeitschrift`);
      assert.equal(jsonErrors('item-type', created.json()), '');
      const again = await send('POST', '/ausleihregeln/medientypen', STAFF, {
        code: 'zeitschrift',
        bezeichnung: 'Noch eine',
        bezeichnungEn: 'Another',
        ausleihbar: false,
      });
      assert.equal(again.statusCode, 409);
      const path = '/ausleihregeln/medientypen/zeitschrift';
      const read = await send('GET', path);
      const replaced = await send(
        'PUT',
        path,
        { ...STAFF, 'if-match': String(read.headers.etag) },
        {
          bezeichnung: 'Zeitschrift',
          bezeichnungEn: 'Magazine',
          ausleihbar: true,
          leihfristTage: 14,
        },
      );
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.equal(replaced.json().leihfristTage, 14);
      assert.equal(replaced.json().verlaengerungen, null, 'PUT replaces: absent is the default');
      const stale = await send(
        'PUT',
        path,
        { ...STAFF, 'if-match': String(read.headers.etag) },
        {
          bezeichnung: 'X',
          bezeichnungEn: 'X',
          ausleihbar: true,
        },
      );
      assert.equal(stale.statusCode, 412);
      const patched = await send('PATCH', path, STAFF, { hoechstens: 2 }, 'application/merge-patch+json');
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().leihfristTage, 14, 'PATCH keeps the rest');
      assert.equal(patched.json().hoechstens, 2);
      const bad = await send('POST', '/ausleihregeln/medientypen', STAFF, {
        code: 'Groß',
        bezeichnung: '',
        bezeichnungEn: 'x',
        ausleihbar: 'vielleicht',
        leihfristTage: 0,
      });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(
        bad.json().errors.map((e: { field: string }) => e.field),
        ['code', 'bezeichnung', 'ausleihbar', 'leihfristTage'],
      );
      assert.equal((await send('GET', '/ausleihregeln/medientypen/gibt-es-nicht')).statusCode, 404);
    });

    test('the lending transaction reads an edited type; a type in use cannot be deleted (409)', async () => {
      const work = await stores.works.create({ titel: 'Heft', exemplare: 1 });
      await database.db
        .updateTable('copies')
        .set({ item_type: 'zeitschrift' })
        .where('work_id', '=', work.id)
        .execute();
      const lent = await loans.borrow(memberId, { id: work.id });
      assert.ok(lent.ok);
      assert.equal(lent.loan.dueAt.toISOString(), '2026-12-15T10:00:00.000Z', '14 days, as edited');
      const refused = await send('DELETE', '/ausleihregeln/medientypen/zeitschrift');
      assert.equal(refused.statusCode, 409);
      assert.equal(refused.json().code, 'SHELFMARK_ITEM_TYPE_IN_USE');
      assert.ok(await stores.rules.itemType('zeitschrift'), 'still there');
      await send('POST', '/ausleihregeln/medientypen', STAFF, {
        code: 'leer',
        bezeichnung: 'Leer',
        bezeichnungEn: 'Empty',
        ausleihbar: true,
      });
      assert.equal((await send('DELETE', '/ausleihregeln/medientypen/leer')).statusCode, 204);
      assert.equal((await send('GET', '/ausleihregeln/medientypen/leer')).statusCode, 404);
    });

    test('closed days: add, change the reason, refuse a bad day, delete; a due date moves past them', async () => {
      const added = await send('POST', '/ausleihregeln/schliesstage', STAFF, {
        tag: '2026-12-29',
        anlass: 'Inventur',
      });
      assert.equal(added.statusCode, 201, added.body);
      assert.equal(jsonErrors('closed-day', added.json()), '');
      assert.equal(
        (await send('POST', '/ausleihregeln/schliesstage', STAFF, { tag: '2026-12-29' })).statusCode,
        409,
      );
      const bad = await send('POST', '/ausleihregeln/schliesstage', STAFF, { tag: '2026-02-30' });
      assert.equal(bad.statusCode, 422);
      assert.equal(bad.json().errors[0].field, 'tag');
      const put = await send('PUT', '/ausleihregeln/schliesstage/2026-12-24', STAFF, {
        anlass: 'Heiligabend',
      });
      assert.equal(put.statusCode, 201, 'PUT creates the day');
      const read = await send('GET', '/ausleihregeln/schliesstage/2026-12-24');
      const changed = await send(
        'PUT',
        '/ausleihregeln/schliesstage/2026-12-24',
        { ...STAFF, 'if-match': String(read.headers.etag) },
        { anlass: 'Heiligabend (geschlossen)' },
      );
      assert.equal(changed.statusCode, 200);
      const list = await send('GET', '/ausleihregeln/schliesstage');
      assert.equal(jsonErrors('closed-days', list.json()), '');
      assert.deepEqual(
        list.json().schliesstage.map((d: { tag: string; anlass: string }) => [d.tag, d.anlass]),
        [
          ['2026-12-24', 'Heiligabend (geschlossen)'],
          ['2026-12-29', 'Inventur'],
        ],
      );
      // A book lent on 1 December falls due on the 29th, a closed day: the 30th.
      const work = await stores.works.create({ titel: 'Buch', exemplare: 1 });
      const lent = await loans.borrow(memberId, { id: work.id });
      assert.ok(lent.ok);
      assert.equal(lent.loan.dueAt.toISOString(), '2026-12-30T10:00:00.000Z');
      assert.equal((await send('DELETE', '/ausleihregeln/schliesstage/2026-12-29')).statusCode, 204);
      assert.equal((await send('GET', '/ausleihregeln/schliesstage/2026-12-29')).statusCode, 404);
    });

    test(
      'XML validates; the HTML forms post back with CSRF and answer 303 or 422',
      skipUnless('xmllint'),
      async () => {
        for (const [url, schema] of [
          ['/ausleihregeln/medientypen.xml', 'item-types'],
          ['/ausleihregeln/medientypen/dvd.xml', 'item-type'],
          ['/ausleihregeln/schliesstage.xml', 'closed-days'],
          ['/ausleihregeln/schliesstage/2026-12-24.xml', 'closed-day'],
        ] as const) {
          const res = await send('GET', url);
          assert.equal(res.statusCode, 200, url);
          assert.equal(await xmlErrors(schema, stripDeclaration(res.body)), '', url);
        }
      },
    );

    test(
      'the pages are valid HTML; a form write answers 303, a bad one 422 with the form',
      skipUnless('java'),
      async () => {
        const { cookie, token } = await logIn(app, ORIGIN, 'personal');
        const page = (url: string) => app.inject({ url, headers: { cookie, accept: 'text/html' } });
        const form = (url: string, fields: Record<string, string>) =>
          app.inject({
            method: 'POST',
            url,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              origin: ORIGIN,
              accept: 'text/html',
              cookie,
            },
            payload: new URLSearchParams({ _csrf: token, ...fields }).toString(),
          });
        const ok = await form('/ausleihregeln/schliesstage', { tag: '2027-01-01', anlass: 'Neujahr' });
        assert.equal(ok.statusCode, 303);
        assert.equal(ok.headers.location, `${ORIGIN}/ausleihregeln/schliesstage/2027-01-01`);
        const invalid = await form('/ausleihregeln/medientypen', {
          code: 'x y',
          bezeichnung: '',
          bezeichnungEn: '',
        });
        assert.equal(invalid.statusCode, 422);
        assert.match(invalid.body, /aria-invalid="true"/);
        const pages = {
          'item-types': (await page('/ausleihregeln/medientypen')).body,
          'item-type-in-use': (await page('/ausleihregeln/medientypen/buch')).body,
          'item-type-unused': (await page('/ausleihregeln/medientypen/praesenz')).body,
          'item-types-422': invalid.body,
          'closed-days': (await page('/ausleihregeln/schliesstage')).body,
          'closed-day': (await page('/ausleihregeln/schliesstage/2027-01-01')).body,
        };
        assert.doesNotMatch(
          pages['item-type-in-use'],
          /<form class="delete"/,
          'no delete offered for a type in use',
        );
        assert.match(pages['item-type-unused'], /<form class="delete"/);
        assert.equal(await htmlReport(Object.entries(pages).map(([name, html]) => ({ name, html }))), '');
      },
    );
  });
}

// Issue 12, part 5 over real HTTP on both engines (ADR 0062): a patron (a person without works;
// the demo's anna-berger, ben-krueger, petra-lindner) is seen only by themself and staff. The
// person, its life dates and every format answer 404 to anonymous clients and other members —
// the body of an unknown slug — also on HEAD, with validators, and after the representation
// cache holds the patron's own page; lists, totals, searches and the sitemap leave patrons out
// except for staff (all) and the patron themself. A first work makes a patron public, losing it
// private again, each with a new ETag.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { freshSchema, pgTestUrl, type FreshSchema } from '../support/pg.ts';

const basic = (name: string) => `Basic ${Buffer.from(`${name}:${name}`).toString('base64')}`;
const VIEWERS = {
  anonymous: {},
  ben: { authorization: basic('ben') },
  anna: { authorization: basic('anna') },
  staff: { authorization: STAFF_AUTHORIZATION },
} as const;
type Viewer = keyof typeof VIEWERS;
const SEES_ANNA: Record<Viewer, boolean> = { anonymous: false, ben: false, anna: true, staff: true };
const PATRONS = ['anna-berger', 'ben-krueger', 'petra-lindner'];

interface PersonList {
  person: { url: string }[];
  gesamt?: number;
  naechste?: string;
}

const engines = [
  { name: 'SQLite', skip: false as const, schema: async () => undefined },
  {
    name: 'PostgreSQL',
    skip: pgTestUrl() ? (false as const) : 'SHELFMARK_TEST_DATABASE_URL not set',
    schema: () => freshSchema(),
  },
];

for (const engine of engines) {
  describe(`patron privacy over HTTP, ${engine.name}`, { skip: engine.skip }, () => {
    let c: Catalogue;
    let schema: FreshSchema | undefined;
    before(async () => {
      schema = await engine.schema();
      c = await startCatalogue(schema ? { databaseUrl: schema.url } : {});
    });
    after(async () => {
      await c?.stop();
      await schema?.drop();
    });

    const get = (path: string, who: Viewer, headers: Record<string, string> = {}) =>
      c.get(path, { ...VIEWERS[who], ...headers });

    /** Every person slug of the whole list (all pages) as `who` sees it, and its total. */
    async function listed(who: Viewer, query = '') {
      const slugs: string[] = [];
      let next: string | undefined = `/personen.json?anzahl=100${query}`;
      let total: number | undefined;
      while (next) {
        const response = await get(next, who);
        assert.equal(response.status, 200, next);
        const page = (await response.json()) as PersonList;
        slugs.push(...page.person.map((p) => p.url.replace(/.*\/personen\//, '')));
        total = page.gesamt;
        next = page.naechste;
      }
      return { slugs, total };
    }

    test('the person and its life dates: 404 like an unknown slug unless self or staff, every format and HEAD', async () => {
      const unknown = await (await get('/personen/niemand-da.json', 'anonymous')).text();
      for (const who of Object.keys(VIEWERS) as Viewer[]) {
        for (const path of [
          '/personen/anna-berger',
          '/personen/anna-berger.json',
          '/personen/anna-berger.xml',
          '/personen/anna-berger/lebensdaten',
          '/personen/anna-berger/lebensdaten.json',
          `/person?id=${await c.idOf('persons', 'anna-berger')}`,
        ]) {
          const expected = SEES_ANNA[who] ? 200 : 404;
          assert.equal((await get(path, who)).status, expected, `GET ${path} as ${who}`);
          const head = await c.send('HEAD', path, { headers: VIEWERS[who] });
          assert.equal(head.status, expected, `HEAD ${path} as ${who}`);
        }
        if (!SEES_ANNA[who]) {
          const body = await (await get('/personen/anna-berger.json', who)).text();
          assert.equal(body.replaceAll('anna-berger', 'niemand-da'), unknown, 'the body of an unknown slug');
        }
      }
      // An author stays public.
      for (const who of Object.keys(VIEWERS) as Viewer[])
        assert.equal((await get('/personen/goethe.json', who)).status, 200, who);
    });

    test("the representation cache never hands the patron's page to anyone else", async () => {
      for (const format of ['json', 'html', 'xml']) {
        const path = `/personen/anna-berger.${format}`;
        const own = await get(path, 'anna');
        assert.equal(own.status, 200);
        const etag = own.headers.get('etag') ?? '';
        assert.equal((await get(path, 'anna')).headers.get('etag'), etag, 'served again (from the cache)');
        for (const who of ['anonymous', 'ben'] as const) {
          assert.equal((await get(path, who)).status, 404, `${format} as ${who} after anna`);
          const conditional = await get(path, who, { 'if-none-match': etag });
          assert.equal(conditional.status, 404, `${format}: her ETag is no key for ${who}`);
        }
        assert.equal((await get(path, 'anna', { 'if-none-match': etag })).status, 304);
      }
    });

    test('lists, totals, search and sitemap: patrons only for staff and themselves', async () => {
      const everyone = await listed('anonymous');
      for (const patron of PATRONS) assert.ok(!everyone.slugs.includes(patron), patron);
      assert.ok(everyone.slugs.includes('goethe'));
      assert.ok(everyone.slugs.length > 60, 'the demo still shows its authors');
      assert.equal(everyone.total, everyone.slugs.length);

      const ben = await listed('ben');
      assert.deepEqual(
        ben.slugs.filter((s) => PATRONS.includes(s)),
        ['ben-krueger'],
      );
      assert.equal(ben.total, everyone.total! + 1);
      const staff = await listed('staff');
      assert.deepEqual(staff.slugs.filter((s) => PATRONS.includes(s)).sort(), [...PATRONS].sort());
      assert.equal(staff.total, everyone.total! + 3);

      assert.deepEqual(await listed('anonymous', '&q=berger'), { slugs: [], total: 0 });
      assert.deepEqual(await listed('ben', '&q=berger'), { slugs: [], total: 0 });
      assert.deepEqual(await listed('anna', '&q=berger'), { slugs: ['anna-berger'], total: 1 });
      assert.deepEqual(await listed('staff', '&q=berger'), { slugs: ['anna-berger'], total: 1 });

      const html = await (await get('/personen?q=anna', 'anonymous')).text();
      assert.ok(!html.includes('anna-berger'), 'the HTML search neither');
      const sitemap = await (await get('/sitemap.xml', 'anonymous')).text();
      assert.ok(sitemap.includes('/personen/goethe<'));
      for (const patron of PATRONS) assert.ok(!sitemap.includes(patron), `sitemap: ${patron}`);
      for (const who of Object.keys(VIEWERS) as Viewer[]) {
        const home = await (await get('/', who)).text();
        for (const patron of PATRONS) assert.ok(!home.includes(patron), `home as ${who}: ${patron}`);
      }
    });

    test('a first work makes the patron public, deleting it private again; new ETags each time', async () => {
      const staffJson = {
        authorization: STAFF_AUTHORIZATION,
        'content-type': 'application/json',
        accept: 'application/json',
      };
      const before = (await get('/personen/anna-berger.json', 'staff')).headers.get('etag');
      const created = await c.send('POST', '/werke', {
        headers: staffJson,
        body: JSON.stringify({ titel: 'Annas Erinnerungen', person: ['anna-berger'] }),
      });
      assert.equal(created.status, 201);
      const published = await get('/personen/anna-berger.json', 'anonymous');
      assert.equal(published.status, 200, 'an author now');
      assert.notEqual(published.headers.get('etag'), before);
      assert.ok((await listed('anonymous')).slugs.includes('anna-berger'));
      assert.ok((await listed('anonymous', '&q=berger')).slugs.includes('anna-berger'));
      assert.ok((await (await get('/sitemap.xml', 'anonymous')).text()).includes('/personen/anna-berger<'));

      const work = new URL(created.headers.get('location')!).pathname;
      assert.equal((await c.send('DELETE', work, { headers: VIEWERS.staff })).status, 204);
      assert.equal((await get('/personen/anna-berger.json', 'anonymous')).status, 404, 'a patron again');
      const after = (await get('/personen/anna-berger.json', 'staff')).headers.get('etag');
      assert.notEqual(after, published.headers.get('etag'));
      assert.ok(!(await listed('anonymous')).slugs.includes('anna-berger'));
    });
  });
}

// Stateless guarantees (docs/methods.md, docs/access.md): public GETs never set a cookie; a public URL asked with
// an expired, tampered or absent session answers exactly the anonymous view — never an error,
// never a redirect to the log-in — and only restricted resources answer 403.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSessionCodec } from '../../src/http/session/index.ts';
import {
  locationPath,
  logIn,
  request,
  startShelfmark,
  TEST_SECRET,
  type Session,
  type Shelfmark,
} from './server.ts';

const HOUR_MS = 3600_000;

/** Public resources in every way a reader may ask for them (suffix, ?format=, Accept, HEAD). */
const PUBLIC: readonly [method: 'GET' | 'HEAD', path: string, accept?: string][] = [
  ['GET', '/'],
  ['GET', '/werke'],
  ['GET', '/werke?q=faust'],
  ['GET', '/werke/faust'],
  ['HEAD', '/werke/faust'],
  ['GET', '/werke/faust.json'],
  ['GET', '/werke/faust', 'application/xml'],
  ['GET', '/werk?id=1'],
  ['GET', '/personen'],
  ['GET', '/personen/goethe'],
  ['GET', '/personen/goethe.xml'],
  ['GET', '/personen/goethe?format=json'],
  ['GET', '/person?slug=goethe'],
  ['GET', '/sitzung'],
  ['GET', '/schema/person.json'],
  ['GET', '/static/shelfmark.css'],
  ['GET', '/bilder/goethe.svg'],
];

describe('stateless: public GETs, broken sessions, restricted resources', () => {
  let server: Shelfmark;
  let anna: Session;
  let staff: Session;
  let restricted: string[];
  /** Cookie headers that must all read as "nobody is logged in". */
  let broken: Record<string, string>;

  before(async () => {
    server = await startShelfmark('shelfmark-stateless-');
    anna = await logIn(server.base, 'anna');
    staff = await logIn(server.base, 'personal');
    const loans = await request(server.base, anna, 'GET', `/ausleihen/${anna.personId}`);
    assert.equal(loans.status, 200);
    const loanUrl = ((await loans.json()) as { ausleihe: { url: string }[] }).ausleihe[0]?.url;
    assert.ok(loanUrl, 'the demo gives anna loans');
    restricted = [`/ausleihen/${anna.personId}`, new URL(loanUrl).pathname, '/ausleihen'];

    const codec = createSessionCodec({ secrets: [TEST_SECRET] });
    const [payload = '', signature = ''] = anna.cookie.replace('shelfmark_session=', '').split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { u: number };
    const asStaff = Buffer.from(JSON.stringify({ ...claims, u: staff.personId })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const otherKey = createSessionCodec({ secrets: ['another-secret-of-at-least-32-characters!'] });
    // Forged cookies name staff's real session (its id and epoch), so the server's record of it
    // (ADR 0076) exists: each case below fails only for the reason it names.
    const staffClaims = JSON.parse(
      Buffer.from(staff.cookie.replace('shelfmark_session=', '').split('.')[0] ?? '', 'base64url').toString(),
    ) as { s: string; v: number };
    const real = { id: staffClaims.s, epoch: staffClaims.v };
    broken = {
      expired: codec.issue(staff.personId, Date.now() - 9 * HOUR_MS, real).value, // 8 h lifetime
      'tampered payload (anna → staff id)': `${asStaff}.${signature}`,
      'tampered signature': `${payload}.${flipped}`,
      'signed with another secret': otherKey.issue(staff.personId, Date.now(), real).value,
      garbage: 'not-a-session',
      empty: '',
    };
    // Control: a cookie forged the same way but unexpired IS accepted, so the cases above fail
    // for the reason they name, not because the forging is wrong.
    const fresh = codec.issue(staff.personId, Date.now(), real).value;
    const who = await fetch(`${server.base}/sitzung.json`, {
      headers: { cookie: `shelfmark_session=${fresh}` },
    });
    assert.equal(((await who.json()) as { username?: string }).username, 'personal');
  });
  after(() => server?.dispose());

  const get = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.base}${path}`, { method, headers, redirect: 'manual' });

  test('public GETs and HEADs set no cookie, anonymous or logged in; nor does a 404', async () => {
    for (const [method, path, accept] of PUBLIC) {
      for (const [who, cookie] of [
        ['anonymous', undefined],
        ['anna', anna.cookie],
      ] as const) {
        const headers = { ...(accept && { accept }), ...(cookie && { cookie }) };
        const response = await get(method, path, headers);
        assert.equal(response.status, 200, `${method} ${path} (${who})`);
        assert.equal(response.headers.get('set-cookie'), null, `${method} ${path} (${who}) sets no cookie`);
      }
    }
    const missing = await get('GET', '/werke/gibt-es-nicht');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('set-cookie'), null);
  });

  test('an expired, tampered or absent session gets exactly the anonymous view of public URLs', async () => {
    for (const [method, path, accept] of PUBLIC) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const anonymous = await get(method, path, headers);
      const expected = await anonymous.text();
      for (const [why, value] of Object.entries(broken)) {
        const label = `${method} ${path} with a session cookie that is ${why}`;
        const response = await get(method, path, { ...headers, cookie: `shelfmark_session=${value}` });
        assert.equal(response.status, 200, label);
        assert.equal(response.headers.get('set-cookie'), null, label);
        assert.equal(response.headers.get('etag'), anonymous.headers.get('etag'), label);
        assert.equal(await response.text(), expected, label);
      }
    }
    // Control: the view does depend on a valid session (a logged-in reader gets a borrow form).
    const loggedIn = await (await get('GET', '/werke/faust', { cookie: anna.cookie })).text();
    const anonymous = await (await get('GET', '/werke/faust')).text();
    assert.notEqual(loggedIn, anonymous);
    assert.match(loggedIn, /name="_csrf"/);
    assert.doesNotMatch(anonymous, /name="_csrf"/);
  });

  test('restricted resources answer 403 (not 401, not a redirect) to absent and broken sessions', async () => {
    const sessions: [string, string | undefined][] = [
      ['absent', undefined],
      ...Object.entries(broken).map(([why, value]): [string, string] => [why, `shelfmark_session=${value}`]),
    ];
    for (const path of restricted) {
      for (const [why, cookie] of sessions) {
        for (const accept of ['text/html', 'application/json']) {
          const label = `${path} (${accept}) with a session that is ${why}`;
          const response = await get('GET', path, { accept, ...(cookie && { cookie }) });
          assert.equal(response.status, 403, label);
          assert.equal(response.headers.get('set-cookie'), null, label);
          assert.equal(response.headers.get('location'), null, label);
          const body = await response.text();
          if (accept === 'text/html')
            assert.match(body, /<form[^>]*action="\/sitzung/, `${label}: offers the log-in form`);
          else assert.equal((JSON.parse(body) as { code: string }).code, 'SHELFMARK_FORBIDDEN', label);
        }
      }
      // Control: staff's valid session reads it.
      assert.equal((await get('GET', path, { cookie: staff.cookie })).status, 200, `${path} as staff`);
    }
  });

  test('a broken session cannot write either: the request is anonymous and refused with 403', async () => {
    for (const [why, value] of Object.entries(broken)) {
      const response = await request(
        server.base,
        {
          read: {},
          write: {
            cookie: `shelfmark_session=${value}`,
            origin: server.base,
            'x-csrf-token': staff.csrfToken,
          },
        },
        'POST',
        '/werke',
        { titel: `Kaputt ${why}`, exemplare: 1 },
      );
      assert.equal(response.status, 403, why);
      // Refused by the access rules as an anonymous request (no session to check a token against).
      assert.equal(((await response.json()) as { code: string }).code, 'SHELFMARK_FORBIDDEN', why);
    }
    const found = async (q: string) => {
      const list = await request(server.base, staff, 'GET', `/werke?q=${q}`);
      return ((await list.json()) as { werk: unknown[] }).werk.length;
    };
    assert.equal(await found('Kaputt'), 0, 'nothing was created');
    // Control: the same request with staff's valid session creates the work (and search sees it).
    const ok = await request(server.base, staff, 'POST', '/werke', { titel: 'Heil Kaputt', exemplare: 1 });
    assert.equal(ok.status, 201);
    assert.equal(locationPath(ok), '/werke/heil-kaputt');
    assert.equal(await found('Kaputt'), 1);
  });
});

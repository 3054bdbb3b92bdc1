// End to end: the real server (temporary SQLite, demo data) answering writes of persons and
// works from an API client with Basic credentials, in JSON and XML; lost updates refused with
// 412; hostile bodies refused with the right 4xx in the negotiated format, nothing stored, no 500.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { jsonErrors, xmlErrors } from '../kit/catalogue/validate.ts';
import { serveShelfmark } from '../kit/serve.ts';

const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;
const MEMBER = `Basic ${Buffer.from('anna:anna').toString('base64')}`;
const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';

describe('writing persons and works over HTTP', () => {
  let dir: string;
  let base: string;
  let stop: (() => Promise<void>) | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shelfmark-writes-http-'));
    const server = await serveShelfmark({ databaseUrl: join(dir, 'shelfmark.db'), dir });
    base = server.base;
    stop = server.stop;
  });
  after(async () => {
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (
    method: string,
    path: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ) =>
    fetch(`${base}${path}`, {
      method,
      body,
      headers: { authorization: STAFF, ...headers },
      redirect: 'manual',
    });
  const json = (method: string, path: string, value: unknown, headers: Record<string, string> = {}) =>
    send(method, path, JSON.stringify(value), { 'content-type': JSON_TYPE, accept: JSON_TYPE, ...headers });
  const xmlSend = (method: string, path: string, text: string, headers: Record<string, string> = {}) =>
    send(method, path, text, { 'content-type': XML_TYPE, accept: XML_TYPE, ...headers });
  const strip = (text: string) => text.replace(/^<\?xml[^>]*>\n/, '');

  test('POST in JSON and XML: 201, absolute Location, valid representation; 403 for others', async () => {
    const created = await json('POST', '/personen', { vorname: 'Ada', nachname: 'Lovelace', geboren: 1815 });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), `${base}/personen/ada-lovelace`);
    assert.equal(jsonErrors('person', await created.json()), '');

    const xmlBody = `<?xml version="1.0" encoding="UTF-8"?>
<werk><titel>Notes</titel><jahr>1843</jahr><personen><person ref="${base}/personen/ada-lovelace">Ada</person></personen><exemplare>2</exemplare></werk>`;
    const work = await xmlSend('POST', '/werke', xmlBody);
    assert.equal(work.status, 201);
    assert.equal(work.headers.get('location'), `${base}/werke/notes`);
    const text = await work.text();
    assert.equal(await xmlErrors('work', strip(text)), '');
    assert.match(text, new RegExp(`<person ref="${base}/personen/ada-lovelace">Ada Lovelace</person>`));

    const member = await json('POST', '/werke', { titel: 'Nope' }, { authorization: MEMBER });
    assert.equal(member.status, 403, 'member');
    const anonymous = await fetch(`${base}/werke`, {
      method: 'POST',
      body: JSON.stringify({ titel: 'Nope' }),
      headers: { 'content-type': JSON_TYPE, accept: JSON_TYPE },
    });
    assert.equal(anonymous.status, 403, 'anonymous');
    assert.equal((await fetch(`${base}/werke/nope`)).status, 404);
  });

  test('two clients PUT with the same ETag: the second gets 412, the first one is stored', async () => {
    await json('POST', '/werke', { titel: 'Streitfall', exemplare: 1 });
    const got = await fetch(`${base}/werke/streitfall.json`);
    const etag = got.headers.get('etag') ?? '';
    assert.ok(etag);
    const first = await json(
      'PUT',
      '/werke/streitfall',
      { titel: 'Streitfall', exemplare: 4 },
      { 'if-match': etag },
    );
    assert.equal(first.status, 200);
    const second = await xmlSend(
      'PUT',
      '/werke/streitfall',
      '<werk><titel>Streitfall</titel><exemplare>9</exemplare></werk>',
      {
        'if-match': etag,
      },
    );
    assert.equal(second.status, 412);
    assert.match(second.headers.get('content-type') ?? '', /application\/problem\+xml/);
    const now = (await (await fetch(`${base}/werke/streitfall.json`)).json()) as { exemplare: number };
    assert.equal(now.exemplare, 4);
  });

  test('PUT keeps the URL given (no move), creates at a free slug (201); DELETE → 204, then 410', async () => {
    await json('POST', '/personen', { vorname: 'Grace', nachname: 'Hopper' });
    const renamed = await json('PUT', '/personen/grace-hopper', {
      vorname: 'Grace Brewster',
      nachname: 'Hopper',
    });
    assert.equal(renamed.status, 200);
    assert.match(renamed.headers.get('content-location') ?? '', /\/personen\/grace-hopper\.json$/);
    assert.equal(jsonErrors('person', await renamed.json()), '');
    // As staff: without a work she is a patron, whom nobody else sees (ADR 0062).
    const asStaff = { redirect: 'manual', headers: { authorization: STAFF } } as const;
    const same = await fetch(`${base}/personen/grace-hopper`, asStaff);
    assert.equal(same.status, 200, 'PUT stores the person at the URL given (ADR 0024)');
    assert.equal((await fetch(`${base}/personen/grace-brewster-hopper`, asStaff)).status, 404);

    const put = await xmlSend('PUT', '/werke/cobol', '<werk><titel>COBOL</titel><personen/></werk>');
    assert.equal(put.status, 201);
    assert.equal(put.headers.get('location'), `${base}/werke/cobol`);
    const incomplete = await json('PUT', '/werke/cobol', { jahr: 1959 });
    assert.equal(incomplete.status, 422);
    const problem = (await incomplete.json()) as { errors: { field: string }[] };
    assert.deepEqual(
      problem.errors.map((e) => e.field),
      ['titel'],
    );

    const gone = await send('DELETE', '/werke/cobol', undefined, {});
    assert.equal(gone.status, 204);
    assert.equal((await fetch(`${base}/werke/cobol`)).status, 410);
  });

  test('an HTML form POST gets 303; an invalid one its form again with 422', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
    const ok = await send('POST', '/werke', 'titel=Formular&exemplare=1&person=goethe', form);
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), `${base}/werke/formular`);
    const bad = await send('POST', '/werke', 'titel=&jahr=abc', form);
    assert.equal(bad.status, 422);
    const page = await bad.text();
    assert.match(page, /aria-invalid="true"/);
    assert.match(page, /value="abc"/);
  });

  test('hostile bodies: the right 4xx in the negotiated format, nothing stored, no 500', async () => {
    const bomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<werk><titel>&lol2;</titel></werk>`;
    const cases: [string, () => Promise<Response>, number, string][] = [
      [
        'malformed JSON',
        () => send('POST', '/werke', '{"titel": "Kaputt"', { 'content-type': JSON_TYPE, accept: JSON_TYPE }),
        400,
        'problem+json',
      ],
      ['malformed XML', () => xmlSend('POST', '/werke', '<werk><titel>Kaputt</werk>'), 400, 'problem+xml'],
      ['entity bomb', () => xmlSend('POST', '/werke', bomb), 400, 'problem+xml'],
      [
        'external entity',
        () =>
          xmlSend(
            'POST',
            '/werke',
            '<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]><werk><titel>&x;</titel></werk>',
          ),
        400,
        'problem+xml',
      ],
      [
        'wrong content type',
        () => send('POST', '/werke', 'titel: Kaputt', { 'content-type': 'text/plain', accept: JSON_TYPE }),
        415,
        'problem+json',
      ],
      [
        '10 MB',
        () =>
          send('POST', '/werke', Buffer.alloc(10 * 1024 * 1024, 0x61), {
            'content-type': JSON_TYPE,
            accept: XML_TYPE,
          }),
        413,
        'problem+xml',
      ],
      [
        'invalid UTF-8',
        () =>
          send(
            'POST',
            '/werke',
            Buffer.from([0x7b, 0x22, 0x74, 0x69, 0x74, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
            { 'content-type': JSON_TYPE, accept: JSON_TYPE },
          ),
        400,
        'problem+json',
      ],
      [
        '100,000-character title',
        () => json('POST', '/werke', { titel: 'K'.repeat(100_000) }),
        422,
        'problem+json',
      ],
      ['array instead of object', () => json('POST', '/werke', ['Kaputt']), 422, 'problem+json'],
    ];
    for (const [name, request, status, type] of cases) {
      const response = await request();
      assert.equal(response.status, status, name);
      assert.match(response.headers.get('content-type') ?? '', new RegExp(type.replace('+', '\\+')), name);
      await response.arrayBuffer();
    }
    const search = (await (await fetch(`${base}/werke.json?q=Kaputt`)).json()) as { werk: unknown[] };
    assert.deepEqual(search.werk, [], 'nothing stored');
    const errorLog = readFileSync(join(dir, 'logs', 'error.log'), 'utf8');
    // Refusals write Apache's auth entries at error (ADR 0049: anna's 403 is an AH01631); any
    // other error entry would be a 500's.
    const errors = errorLog.split('\n').filter((line) => /:error\]/.test(line));
    assert.deepEqual(
      errors.filter((line) => !/\[(authz_core|auth_basic):error\]/.test(line)),
      [],
      'no 500 was logged',
    );
  });
});

// Doors left ajar by the body parsers (ADR 0077), against the real server (`shelfmark serve`,
// SQLite): a write its handler refuses for this client whatever the body says is answered
// before the body is parsed — the same 401/403 problem as after it, the connection kept alive
// and usable — and a parser's error message is never echoed at length: a 450 KB body of
// unclosed tags made a 1.5 MB `detail` (2.7 MB as XML).
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { basicAuth, startShelfmark, type Shelfmark } from '../access/server.ts';

/** 450 KB of unclosed tags: fast-xml-parser's message names every one of them. */
const UNCLOSED = `<person>${'<a>'.repeat(150_000)}`;
/** A megabyte of well-formed XML: the parse an anonymous client used to cost. */
const BIG_XML = `<person><vorname>${'x'.repeat(1024 * 1024 - 64)}</vorname></person>`;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The connection was one kept alive from an earlier request. */
  readonly reused: boolean;
}

function send(
  base: string,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reused: req.reusedSocket }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_PROBLEM = { accept: 'application/json' };
const xmlBody = { 'content-type': 'application/xml' };

describe('refused unread, and bounded details', () => {
  let server: Shelfmark;
  // One connection, kept alive: every request below after the first reuses it.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = () => server.base;

  before(async () => {
    server = await startShelfmark('shelfmark-unread-');
  });
  after(async () => {
    agent.destroy();
    await server?.dispose();
  });

  test('an anonymous write with a malformed megabyte is refused as 403 unparsed, on a connection kept alive', async () => {
    const small = await send(
      base(),
      agent,
      'POST',
      '/personen',
      { ...JSON_PROBLEM, ...xmlBody },
      '<person/>',
    );
    assert.equal(small.status, 403);
    for (const body of [UNCLOSED, BIG_XML, '{"vorname":']) {
      const type = body.startsWith('{') ? { 'content-type': 'application/json' } : xmlBody;
      const big = await send(base(), agent, 'POST', '/personen', { ...JSON_PROBLEM, ...type }, body);
      // Parsed, the malformed ones would be 400: they are refused before the parser.
      assert.equal(big.status, 403, big.body.slice(0, 300));
      const problem = JSON.parse(big.body) as Record<string, unknown>;
      assert.deepEqual(problem, JSON.parse(small.body), 'the same problem as for a small body');
      assert.equal(problem.code, 'SHELFMARK_FORBIDDEN');
      assert.equal(big.reused, true, 'the kept-alive connection');
    }
    // The discarded body left nothing behind on the connection: the next request is answered.
    const next = await send(base(), agent, 'GET', '/personen.json', {});
    assert.equal(next.status, 200);
    assert.equal(next.reused, true);
  });

  test("a member's write to a staff resource is refused unread; a wrong Basic password is 401 as before", async () => {
    const member = { ...JSON_PROBLEM, ...xmlBody, authorization: basicAuth('anna') };
    const refused = await send(base(), agent, 'PUT', '/personen/goethe', member, UNCLOSED);
    assert.equal(refused.status, 403);
    assert.equal((JSON.parse(refused.body) as { code: string }).code, 'SHELFMARK_FORBIDDEN');
    const wrong = { ...JSON_PROBLEM, ...xmlBody, authorization: basicAuth('anna', 'falsch') };
    const unauthenticated = await send(base(), agent, 'POST', '/personen', wrong, UNCLOSED);
    assert.equal(unauthenticated.status, 401);
    assert.match(String(unauthenticated.headers['www-authenticate']), /^Basic /);
    // A form POST may carry `_method`: /person has no POST, so that is left to the handler (405).
    const form = await send(
      base(),
      agent,
      'POST',
      '/personen/goethe',
      { ...JSON_PROBLEM, 'content-type': 'application/x-www-form-urlencoded' },
      'vorname=x',
    );
    assert.equal(form.status, 405);
  });

  test("staff's malformed body: the parser's message is cut short in every format", async () => {
    const staff = { ...xmlBody, authorization: basicAuth('personal') };
    for (const accept of ['application/json', 'application/xml', 'text/html']) {
      // English pages show the (English) detail (ADR 0029).
      const headers = { ...staff, accept, 'accept-language': 'en' };
      const answer = await send(base(), agent, 'POST', '/personen', headers, UNCLOSED);
      assert.equal(answer.status, 400, accept);
      assert.ok(answer.body.length < 16_000, `${accept}: ${answer.body.length} bytes`);
      assert.match(answer.body, /The XML body is malformed/);
      assert.match(answer.body, /more characters\)/, 'says that it was cut');
    }
    const json = await send(
      base(),
      agent,
      'POST',
      '/personen',
      {
        'content-type': 'application/json',
        authorization: basicAuth('personal'),
        accept: 'application/json',
      },
      `{"vorname": "${'x'.repeat(400_000)}`,
    );
    assert.equal(json.status, 400);
    const detail = (JSON.parse(json.body) as { detail: string }).detail;
    assert.ok(detail.length <= 1100, `${detail.length} characters`);
  });
});

// Issue 11, item 8: every response shape /openapi.json documents is what the real server (with
// the demo catalogue) sends — each documented GET's JSON validates against the documented
// schema, which is the one served under /schema/ — and each path's methods are its Allow header.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { validateJson } from '../support/json.ts';
import { skipUnless } from '../support/requirements.ts';
import { validateXml } from '../support/xml.ts';
import { unhoisted } from '../../src/catalogue/openapi/schemas.ts';
import { startTestSmtp, type TestSmtp } from '../kit/mail/smtp.ts';

type MediaSchema = { $ref?: string; externalDocs?: { url: string } };
type Operation = { responses: Record<string, { content?: Record<string, { schema: MediaSchema }> }> };
type OpenApi = {
  paths: Record<string, Record<string, Operation | string>>;
  components: { schemas: Record<string, Record<string, unknown> & { externalDocs?: { url: string } }> };
};

const STAFF = { Authorization: STAFF_AUTHORIZATION };
const describedBy = (schema: string) => new RegExp(`/schema/${schema}\\.json>; rel="describedby"`);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('/openapi.json against the demo catalogue', () => {
  let c: Catalogue;
  let document: OpenApi;
  /** A real value for each path parameter, read from the demo data. */
  let samples: Record<string, string>;
  /** Receives the password reset mail whose link is the {token} sample. */
  let smtp: TestSmtp;

  const json = async (path: string): Promise<Record<string, unknown>> => {
    const r = await c.get(path, { ...STAFF, Accept: 'application/json' });
    assert.equal(r.status, 200, path);
    return (await r.json()) as Record<string, unknown>;
  };
  const concrete = (template: string) =>
    template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      // /werke/{slug} takes a work's slug, every other {slug} a person's.
      const value = samples[template.startsWith('/werke/') && name === 'slug' ? 'work_slug' : name];
      assert.ok(value, `no sample for {${name}}`);
      return value;
    });
  const schemaOf = (ref: string | undefined) => {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref ?? '')?.[1];
    assert.ok(name, `a schema reference: ${ref}`);
    assert.ok(document.components.schemas[name], `components.schemas.${name}`);
    // The served file: the component with its `$defs` put back (ADR 0074).
    return unhoisted(name, document.components.schemas);
  };

  before(async () => {
    smtp = await startTestSmtp();
    c = await startCatalogue({
      env: {
        SHELFMARK_SMTP_HOST: '127.0.0.1',
        SHELFMARK_SMTP_PORT: String(smtp.port),
        SHELFMARK_SMTP_TLS: 'off',
        SHELFMARK_NOTICE_INTERVAL: '0',
      },
    });
    const r = await c.get('/openapi.json');
    assert.equal(r.status, 200);
    document = (await r.json()) as OpenApi;
    const slugOf = (url: string) => new URL(url).pathname.split('/').pop()!;
    const work = ((await json('/werke')).werk as { url: string }[])[0]!;
    const loan = ((await json('/ausleihen')).ausleihe as { url: string }[])[0]!;
    const [, userId, loanId] = /\/ausleihen\/(\d+)\/(\d+)$/.exec(new URL(loan.url).pathname) ?? [];
    // A person with an account (a borrower): `{slug}/konto` answers for them.
    const borrower = (await json(`/ausleihen/${userId}`)).person as { url: string };
    // A hold of the borrower's for {hold_id}: a one-copy work lent to staff, then held for them.
    const send = (method: string, path: string, body: unknown) =>
      c.send(method, path, {
        headers: { ...STAFF, Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await send('POST', '/werke', { titel: 'Vorgemerkt', exemplare: 1 });
    assert.equal(created.status, 201, 'staff creates a work');
    const heldWork = new URL(created.headers.get('location')!, c.origin).pathname;
    const staffId = await c.idOf('persons', 'petra-lindner');
    assert.equal((await send('POST', `/ausleihen/${staffId}`, { werk: heldWork })).status, 201, 'lent');
    const hold = await send('POST', `/personen/${slugOf(borrower.url)}/vormerkungen`, { werk: heldWork });
    assert.equal(hold.status, 201, 'a hold for the borrower');
    const holdId = slugOf(new URL(hold.headers.get('location')!, c.origin).href);
    // A reset link for the borrower ({token}) and a closed day ({tag}); {code}: a seeded item type.
    const borrowerSlug = slugOf(borrower.url);
    const username = (await json(`/personen/${borrowerSlug}/konto`)).username as string;
    const settings = await send('PUT', `/personen/${borrowerSlug}/konto/einstellungen`, {
      email: 'leser@example.org',
      sprache: 'de',
      benachrichtigungen: true,
    });
    assert.equal(settings.status, 200, 'the borrower gets an address');
    assert.equal((await send('POST', '/passwort-vergessen', { konto: username })).status, 204);
    await smtp.arrived(1);
    const token = /\/passwort-neu\/([A-Za-z0-9_-]{43})/.exec(smtp.received[0]!.text)?.[1];
    assert.ok(token, 'a reset link by mail');
    assert.equal((await send('POST', '/ausleihregeln/schliesstage', { tag: '2026-12-24' })).status, 201);
    samples = {
      token,
      code: 'dvd',
      tag: '2026-12-24',
      slug: borrowerSlug,
      work_slug: slugOf(work.url),
      user_id: userId!,
      loan_id: loanId!,
      nummer: '1',
      hold_id: holdId,
    };
  });
  after(async () => {
    await c?.stop();
    await smtp?.stop();
  });

  test('each inlined schema, its $defs put back, is the one served at its externalDocs URL', async () => {
    const roots = Object.entries(document.components.schemas).filter(([name]) => !name.includes('.'));
    assert.ok(roots.length >= 11, String(roots.length));
    for (const [name, schema] of roots) {
      assert.ok(schema.externalDocs, name);
      const r = await c.get(schema.externalDocs.url);
      const { $schema: _dialect, $id: _id, ...served } = (await r.json()) as Record<string, unknown>;
      assert.deepEqual(unhoisted(name, document.components.schemas), served, name);
    }
  });

  test('every documented GET answers JSON valid against its documented schema', async () => {
    const checked: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      const get = item.get as Operation | undefined;
      const documented = get?.responses['200']?.content?.['application/json']?.schema;
      if (!documented) continue;
      const path = concrete(template);
      const r = await c.get(path, { ...STAFF, Accept: 'application/json' });
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/, path);
      // The schema the representation names (its view's) is the registry's for this URL.
      const name = /^#\/components\/schemas\/(.+)$/.exec(documented.$ref ?? '')?.[1];
      if (name) assert.match(r.headers.get('link') ?? '', describedBy(name), path);
      const schema = documented.$ref ? schemaOf(documented.$ref) : documented;
      const result = validateJson(await r.json(), schema);
      assert.ok(result.ok, `${path}: ${result.errors}`);
      checked.push(template);
    }
    // Not vacuous: the demo server serves every catalogue resource.
    assert.ok(checked.length >= 11, checked.join(', '));
  });

  test('every documented GET answers XML valid against the XSD it names', skipUnless('xmllint'), async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-openapi-'));
    let checked = 0;
    try {
      for (const [template, item] of Object.entries(document.paths)) {
        const get = item.get as Operation | undefined;
        const xsdUrl = get?.responses['200']?.content?.['application/xml']?.schema.externalDocs?.url;
        if (!xsdUrl) continue;
        const xsdPath = path.join(dir, `${checked}.xsd`);
        writeFileSync(xsdPath, await (await c.get(xsdUrl)).text());
        const r = await c.get(concrete(template), { ...STAFF, Accept: 'application/xml' });
        assert.equal(r.status, 200, template);
        const result = await validateXml(await r.text(), xsdPath);
        assert.ok(result.ok, `${template}: ${result.errors}`);
        checked += 1;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(checked >= 11, String(checked));
  });

  test('an error is the documented problem details', async () => {
    const problem = document.components as unknown as {
      responses: { NotFound: { content: Record<string, { schema: { $ref: string } }> } };
    };
    const schema = schemaOf(problem.responses.NotFound.content['application/problem+json']!.schema.$ref);
    const r = await c.get('/personen/gibt-es-nicht-xyz', { Accept: 'application/json' });
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const result = validateJson(await r.json(), schema);
    assert.ok(result.ok, result.errors);
  });

  test("every path's documented methods are its Allow header, and the other way round", async () => {
    for (const [template, item] of Object.entries(document.paths)) {
      const path = concrete(template);
      const r = await c.send('OPTIONS', path, { headers: STAFF });
      assert.equal(r.status, 204, path);
      const allowed = (r.headers.get('allow') ?? '').split(/,\s*/).sort();
      const documented = METHODS.filter((m) => m in item).map((m) => m.toUpperCase());
      const expected = [...documented, ...(documented.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort();
      assert.deepEqual(allowed, expected, path);
    }
  });
});

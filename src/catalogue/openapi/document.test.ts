// /openapi.json (ADR 0057): a valid OpenAPI 3.1 document by a maintained validator, served like
// the /schema/ files, whose methods come from the registered resource definitions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { createLinks, createResourceApp, parseBase, type ResourceDefinition } from '../../http/index.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { catalogueResources } from '../index.ts';
import { openApiDocument } from './index.ts';

async function validate(document: unknown): Promise<{ valid: boolean; errors: string }> {
  const result = await new Validator().validate(document as Record<string, unknown>);
  return { valid: result.valid, errors: JSON.stringify(result.errors, null, 2) };
}

describe('GET /openapi.json', () => {
  let app: FastifyInstance;
  before(async () => {
    const catalogue = catalogueResources(await memoryCatalogue());
    app = await createResourceApp({
      baseUrl: 'https://library.example/katalog',
      trustProxy: [],
      resources: catalogue.resources,
      rewrites: catalogue.rewrites,
      passthrough: catalogue.passthrough,
      configure: catalogue.configure,
      displayErrors: false,
    });
  });
  after(() => app.close());

  test('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const r = await app.inject('/katalog/openapi.json');
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^application\/vnd\.oai\.openapi\+json/);
    const document = r.json();
    const result = await validate(document);
    assert.ok(result.valid, result.errors);
    assert.equal(document.openapi, '3.1.1');
    assert.deepEqual(document.servers, [{ url: 'https://library.example/katalog' }]);
    const { description: _text, ...session } = document.components.securitySchemes.session;
    assert.deepEqual(session, { type: 'apiKey', in: 'cookie', name: 'shelfmark_session' });
    assert.equal(document.components.securitySchemes.basic.scheme, 'basic');
    assert.equal(
      document.paths['/personen/{slug}'].get.responses['200'].content['application/json'].schema.$ref,
      '#/components/schemas/person',
    );
    assert.equal(
      document.components.schemas.person.externalDocs.url,
      'https://library.example/katalog/schema/person.json',
    );
  });

  test('is public and cacheable like /schema/*: Cache-Control, ETag, 304', async () => {
    const r = await app.inject('/katalog/openapi.json');
    assert.match(String(r.headers['cache-control']), /^public, max-age=\d+$/);
    const etag = String(r.headers.etag);
    assert.match(etag, /^"/);
    const again = await app.inject({ url: '/katalog/openapi.json', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal((await app.inject({ method: 'HEAD', url: '/katalog/openapi.json' })).statusCode, 200);
  });
});

describe('the document follows the resource definitions', () => {
  const links = createLinks(parseBase('https://library.example/'));
  const build = (resources: readonly ResourceDefinition[]) =>
    openApiDocument({ links, resources, sessionCookie: 'c' }) as {
      paths: Record<string, Record<string, unknown>>;
    };

  test('a method a definition gains shows up by itself', async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    assert.equal(build(resources).paths['/werke']!.put, undefined);
    const works = resources.find((r) => r.name === 'works')!;
    const more = resources.map((r) =>
      r === works ? { ...works, methods: { ...works.methods, PUT: works.methods.GET! } } : r,
    );
    assert.ok(build(more).paths['/werke']!.put);
  });

  test("a URL of a shared route has the methods its resource's methodsAt names for it", async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    const methods = (paths: Record<string, Record<string, unknown>>, path: string) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => m in paths[path]!);
    const { paths } = build(resources);
    assert.deepEqual(methods(paths, '/ausleihen'), ['get'], "the staff's list of loans due");
    assert.deepEqual(methods(paths, '/ausleihen/{user_id}'), ['get', 'post'], "a user's loans");
    const everywhere = resources.map((r) => (r.name === 'loans' ? { ...r, methodsAt: undefined } : r));
    assert.deepEqual(methods(build(everywhere).paths, '/ausleihen'), ['get', 'post'], 'without methodsAt');
  });

  test('facts of a method the resource does not have are refused', async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    const fewer = resources.map((r) =>
      r.name === 'person' ? { ...r, methods: { GET: r.methods.GET! } } : r,
    );
    assert.throws(() => build(fewer), /facts of PUT, PATCH, DELETE for \/personen\/\{slug\}/);
  });

  test('a registered resource without a documented path is refused', async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    const extra: ResourceDefinition = { name: 'neu', path: '/neu', methods: {} };
    assert.throws(() => build([...resources, extra]), /neu/);
  });

  test('a resource at another route than its registry URL is refused', async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    const moved = resources.map((r) => (r.name === 'work' ? { ...r, path: '/titel' } : r));
    assert.throws(
      () => build(moved),
      /resource work is at \/titel, but its URL \/werke\/\{slug\} goes to \/werk/,
    );
  });

  test('every operation: a unique operationId, a summary, its statuses listed (no default)', async () => {
    const document = build(catalogueResources(await memoryCatalogue()).resources);
    const ids: string[] = [];
    for (const item of Object.values(document.paths))
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const operation = item[method] as
          { operationId: string; summary: string; responses: Record<string, unknown> } | undefined;
        if (!operation) continue;
        ids.push(operation.operationId);
        assert.ok(operation.summary, operation.operationId);
        assert.equal(operation.responses.default, undefined, operation.operationId);
        assert.ok(
          Object.keys(operation.responses).some((s) => s.startsWith('4')),
          operation.operationId,
        );
      }
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length >= 35, String(ids.length));
    assert.doesNotMatch(JSON.stringify(document), /#\/\$defs\//);
  });

  test('statuses follow the operation: PATCH takes a merge patch, POST creates with Location', async () => {
    const document = build(catalogueResources(await memoryCatalogue()).resources) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { required: boolean; content: object };
            responses: Record<string, { headers?: object }>;
          }
        >
      >;
    };
    const work = document.paths['/werke/{slug}']!;
    assert.deepEqual(Object.keys(work.patch!.requestBody!.content), ['application/merge-patch+json']);
    for (const s of ['412', '428', '415', '422']) assert.ok(work.patch!.responses[s], s);
    assert.ok(work.get!.responses['304']);
    assert.equal(work.get!.responses['412'], undefined);
    assert.ok(document.paths['/werke']!.post!.responses['201']!.headers);
    const renewal = document.paths['/ausleihen/{user_id}/{loan_id}/verlaengerung']!.post!;
    assert.equal(renewal.requestBody!.required, false);
  });

  test('the validator does reject a broken document', async () => {
    const resources = catalogueResources(await memoryCatalogue()).resources;
    const document = build(resources) as Record<string, unknown>;
    delete document.info;
    assert.equal((await validate(document)).valid, false);
  });
});

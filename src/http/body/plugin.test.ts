import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { parseMediaType } from './media-type.ts';
import { refuseBeforeReading, registerBodyParsers } from './plugin.ts';
import { DEFAULT_BODY_LIMIT } from './read.ts';

/** Wired as the layer's pipeline wires them (app/pipeline.ts): the early check, then the parsers. */
async function app(limit = DEFAULT_BODY_LIMIT) {
  const app = Fastify();
  const mediaTypeOf = (r: { headers: { 'content-type'?: string } }) =>
    parseMediaType(r.headers['content-type']);
  app.addHook('preParsing', async (request, _reply, payload) => {
    refuseBeforeReading(request, mediaTypeOf, limit);
    return payload;
  });
  registerBodyParsers(app, { limit, mediaTypeOf });
  app.setErrorHandler(
    (
      error: Error & { status?: number; code?: string; headers?: Record<string, string> },
      _request,
      reply,
    ) => {
      reply
        .code(error.status ?? 500)
        .headers(error.headers ?? {})
        .send({ status: error.status, code: error.code, detail: error.message });
    },
  );
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: '/',
    handler: async (request) => ({ body: request.body ?? null }),
  });
  await app.ready();
  return app;
}

const XML = 'application/xml';
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

test('bodies are parsed per Content-Type', async (t) => {
  const server = await app();
  const cases: [string, string, string | Buffer, unknown][] = [
    ['form', FORM, 'a=1&a=2&b=x', { a: ['1', '2'], b: 'x' }],
    ['form with charset', `${FORM}; charset=UTF-8`, 'b=%C3%A4', { b: 'ä' }],
    ['JSON', JSON_TYPE, '{"a":[1,2],"b":"x"}', { a: [1, 2], b: 'x' }],
    ['JSON with BOM', JSON_TYPE, Buffer.from('\ufeff{"b":"x"}'), { b: 'x' }],
    ['XML', XML, '<r><a>1</a><a>2</a><b>x</b></r>', { a: ['1', '2'], b: 'x' }],
    ['text/xml', 'text/xml', '<r><b>x</b></r>', { b: 'x' }],
    ['upper-case type', 'Application/JSON', '{"b":"x"}', { b: 'x' }],
  ];
  for (const [name, type, payload, body] of cases) {
    await t.test(name, async () => {
      const res = await server.inject({
        method: 'POST',
        url: '/',
        headers: { 'content-type': type },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { body });
    });
  }
});

test('bad bodies are refused with the right status', async (t) => {
  const server = await app();
  const big = Buffer.alloc(10 * 1024 * 1024, 'a');
  const cases: [string, string, Record<string, string>, string | Buffer, number, string][] = [
    ['10 MB form → 413', 'POST', { 'content-type': FORM }, big, 413, 'SHELFMARK_BODY_TOO_LARGE'],
    [
      '10 MB of the wrong type → 415 first',
      'POST',
      { 'content-type': 'text/plain' },
      big,
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'text/plain → 415',
      'POST',
      { 'content-type': 'text/plain' },
      'x',
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'PUT multipart → 415',
      'PUT',
      { 'content-type': 'multipart/form-data; boundary=x' },
      'x',
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'unparseable type → 415',
      'POST',
      { 'content-type': 'garbage' },
      'x',
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
    ['body without type → 415', 'POST', {}, 'x', 415, 'SHELFMARK_UNSUPPORTED_MEDIA_TYPE'],
    [
      'latin-1 charset → 415',
      'POST',
      { 'content-type': `${FORM}; charset=iso-8859-1` },
      'a=b',
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'invalid UTF-8 JSON → 400',
      'POST',
      { 'content-type': JSON_TYPE },
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      400,
      'SHELFMARK_BODY_MALFORMED',
    ],
    [
      'invalid UTF-8 form → 400',
      'POST',
      { 'content-type': FORM },
      Buffer.from([0x61, 0x3d, 0xc3, 0x28]),
      400,
      'SHELFMARK_BODY_MALFORMED',
    ],
    ['malformed JSON → 400', 'PUT', { 'content-type': JSON_TYPE }, '{"a":', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['empty JSON → 400', 'PUT', { 'content-type': JSON_TYPE }, '', 400, 'SHELFMARK_BODY_MALFORMED'],
    [
      'XML with DOCTYPE → 400',
      'POST',
      { 'content-type': XML },
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
      400,
      'SHELFMARK_XML_DOCTYPE',
    ],
    ['malformed XML → 400', 'POST', { 'content-type': XML }, '<r><a></r>', 400, 'SHELFMARK_BODY_MALFORMED'],
  ];
  for (const [name, method, headers, payload, status, code] of cases) {
    await t.test(name, async () => {
      const res = await server.inject({ method: method as 'POST', url: '/', headers, payload });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json().code, code === 'SHELFMARK_XML_DOCTYPE' ? 'SHELFMARK_BODY_MALFORMED' : code);
      if (code === 'SHELFMARK_XML_DOCTYPE') assert.match(res.json().detail, /DOCTYPE/);
      if (status === 415) {
        assert.equal(
          res.headers['accept-post'],
          'application/x-www-form-urlencoded, application/json, application/xml',
        );
      }
    });
  }
});

test('the limit is checked while streaming when no Content-Length is sent', async () => {
  const { Readable } = await import('node:stream');
  const server = await app(1000);
  const payload = Readable.from([Buffer.alloc(600, 'a'), Buffer.alloc(600, 'a')]);
  const res = await server.inject({ method: 'POST', url: '/', headers: { 'content-type': FORM }, payload });
  assert.equal(res.statusCode, 413);
  const ok = await server.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': FORM },
    payload: 'a=' + 'x'.repeat(990),
  });
  assert.equal(ok.statusCode, 200);
});

test('no body → undefined; GET bodies are ignored', async () => {
  const server = await app();
  for (const method of ['POST', 'DELETE'] as const) {
    const res = await server.inject({ method, url: '/' });
    assert.deepEqual(res.json(), { body: null });
  }
  const get = await server.inject({
    method: 'GET',
    url: '/',
    headers: { 'content-type': 'text/plain' },
    payload: 'x',
  });
  assert.equal(get.statusCode, 200);
});

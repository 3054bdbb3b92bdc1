import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from '../app/create-app.ts';
import { HttpError } from '../errors/index.ts';
import type { Handler } from '../resource/types.ts';
import { html, xml } from '../representation/markup.ts';
import { formMethodOverride } from './override.ts';

const FORM = 'application/x-www-form-urlencoded';
type BodyType = 'form' | 'json' | 'xml' | null;
const fields = (o: Record<string, unknown>) => Object.assign(Object.create(null), o);

test('formMethodOverride', async (t) => {
  const cases: [string, string, BodyType, unknown, string | null][] = [
    ['form POST with PUT', 'POST', 'form', fields({ _method: 'PUT' }), 'PUT'],
    ['form POST with delete (any case)', 'POST', 'form', fields({ _method: 'delete' }), 'DELETE'],
    ['form POST without field', 'POST', 'form', fields({ a: '1' }), null],
    ['form POST with POST', 'POST', 'form', fields({ _method: 'POST' }), null],
    ['JSON body is never overridden', 'POST', 'json', { _method: 'DELETE' }, null],
    ['XML body is never overridden', 'POST', 'xml', fields({ _method: 'DELETE' }), null],
    ['only POST is overridden', 'PUT', 'form', fields({ _method: 'DELETE' }), null],
    ['GET stays GET', 'GET', null, undefined, null],
    ['no body', 'POST', null, undefined, null],
  ];
  for (const [name, method, bodyType, body, expected] of cases) {
    await t.test(name, () => assert.equal(formMethodOverride({ method, bodyType, body }), expected));
  }
  for (const bad of ['GET', 'PATCH', 'OPTIONS']) {
    assert.throws(
      () => formMethodOverride({ method: 'POST', bodyType: 'form', body: fields({ _method: bad }) }),
      (e: unknown) => e instanceof HttpError && e.status === 400,
    );
  }
  assert.throws(() =>
    formMethodOverride({ method: 'POST', bodyType: 'form', body: fields({ _method: ['PUT', 'DELETE'] }) }),
  );
});

test('the layer dispatches by the override; the query string and the charset are ignored', async () => {
  const echo: Handler = async (ctx) => ({
    type: 'representation',
    representation: {
      model: ctx.method as string,
      view: {
        html: () => html`${ctx.method}`,
        xml: () => xml`${ctx.method}`,
        json: (method: string) => ({ method }),
      },
      canonicalPath: '/',
    },
  });
  const app = await createResourceApp({
    baseUrl: 'http://localhost',
    trustProxy: [],
    resources: [{ name: 'echo', path: '/', methods: { POST: echo, PUT: echo, DELETE: echo } }],
    rewrites: [],
    displayErrors: false,
  });
  const post = (url: string, payload: string, type = FORM) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
  assert.deepEqual((await post('/index.json', '_method=DELETE')).json(), { method: 'DELETE' });
  assert.deepEqual((await post('/index.json', '_method=put', `${FORM}; charset=utf-8`)).json(), {
    method: 'PUT',
  });
  assert.deepEqual((await post('/index.json?_method=DELETE', 'a=1')).json(), { method: 'POST' });
  assert.equal((await post('/index.json', '_method=PATCH')).statusCode, 400);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { registerBodyParsers } from '../body/index.ts';
import { HttpError } from '../errors/index.ts';
import { effectiveMethod, rememberRequest } from '../app/request-state.ts';
import { registerMethodOverride } from './hook.ts';
import { formMethodOverride } from './override.ts';

const FORM = 'application/x-www-form-urlencoded';
const fields = (o: Record<string, unknown>) => Object.assign(Object.create(null), o);

test('formMethodOverride', async (t) => {
  const cases: [string, string, string | undefined, unknown, string | null][] = [
    ['form POST with PUT', 'POST', FORM, fields({ _method: 'PUT' }), 'PUT'],
    [
      'form POST with delete (any case)',
      'POST',
      `${FORM}; charset=utf-8`,
      fields({ _method: 'delete' }),
      'DELETE',
    ],
    ['form POST without field', 'POST', FORM, fields({ a: '1' }), null],
    ['form POST with POST', 'POST', FORM, fields({ _method: 'POST' }), null],
    ['JSON body is never overridden', 'POST', 'application/json', { _method: 'DELETE' }, null],
    ['XML body is never overridden', 'POST', 'application/xml', fields({ _method: 'DELETE' }), null],
    ['only POST is overridden', 'PUT', FORM, fields({ _method: 'DELETE' }), null],
    ['GET stays GET', 'GET', undefined, undefined, null],
    ['no body', 'POST', undefined, undefined, null],
  ];
  for (const [name, method, contentType, body, expected] of cases) {
    await t.test(name, () => assert.equal(formMethodOverride({ method, contentType, body }), expected));
  }
  for (const bad of ['GET', 'PATCH', 'OPTIONS']) {
    assert.throws(
      () => formMethodOverride({ method: 'POST', contentType: FORM, body: fields({ _method: bad }) }),
      (e: unknown) => e instanceof HttpError && e.status === 400,
    );
  }
  assert.throws(() =>
    formMethodOverride({ method: 'POST', contentType: FORM, body: fields({ _method: ['PUT', 'DELETE'] }) }),
  );
});

test('the hook sets the effective method; the query string is ignored', async () => {
  const app = Fastify({
    rewriteUrl(raw) {
      rememberRequest(raw, { originalUrl: raw.url ?? '/', resolved: { kind: 'not-found' } as never });
      return raw.url ?? '/';
    },
  });
  registerBodyParsers(app);
  registerMethodOverride(app);
  app.post('/', async (request) => ({ method: effectiveMethod(request) }));
  const post = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': FORM }, payload });
  assert.deepEqual((await post('/', '_method=DELETE')).json(), { method: 'DELETE' });
  assert.deepEqual((await post('/?_method=DELETE', 'a=1')).json(), { method: 'POST' });
});

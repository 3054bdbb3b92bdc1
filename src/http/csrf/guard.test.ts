import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../errors/index.ts';
import { createCsrfGuard, CsrfError, type CsrfRequest } from './guard.ts';
import { createCsrfTokens } from './guard.ts';

const SECRET = 'csrf-secret-csrf-secret-csrf-secret-0';
const T0 = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;
const guard = createCsrfGuard({ secrets: [SECRET], origins: ['https://library.example'] });
const SID = 'AAAAAAAAAAAAAAAAAAAAAA';
const OTHER = 'BBBBBBBBBBBBBBBBBBBBBB';
const SAME = { 'sec-fetch-site': 'same-origin' };
const CROSS = { 'sec-fetch-site': 'cross-site' };

function req(over: Partial<CsrfRequest>): CsrfRequest {
  return {
    method: 'POST',
    headers: SAME,
    body: undefined,
    auth: 'session',
    sessionId: SID,
    login: false,
    ...over,
  };
}

function verdict(request: CsrfRequest, now = T0): string {
  try {
    guard.check(request, now);
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof CsrfError && e instanceof HttpError);
    assert.equal(e.status, 403);
    assert.equal(e.code, 'SHELFMARK_CSRF_FAILED');
    return e.reason;
  }
}

test('CSRF decisions', async (t) => {
  const token = guard.token(SID, T0);
  const form = (csrf: string) => Object.assign(Object.create(null), { _csrf: csrf, titel: 'x' });
  const cases: [string, CsrfRequest, number, string][] = [
    ['GET is never checked', req({ method: 'GET', headers: CROSS }), T0, 'ok'],
    ['token in the form field', req({ body: form(token) }), T0, 'ok'],
    ['token in the header', req({ headers: { ...SAME, 'x-csrf-token': token } }), T0, 'ok'],
    [
      'token for PUT from JSON client',
      req({ method: 'PUT', headers: { origin: 'https://library.example', 'x-csrf-token': token } }),
      T0,
      'ok',
    ],
    ['cross-site with a valid token', req({ headers: CROSS, body: form(token) }), T0, 'origin'],
    ['missing origin evidence', req({ headers: {}, body: form(token) }), T0, 'origin'],
    ['no token', req({}), T0, 'token'],
    ['token from another session', req({ body: form(guard.token(OTHER, T0)) }), T0, 'token'],
    [
      'token signed with another key',
      req({ body: form(createCsrfTokens({ secrets: ['x'.repeat(40)] }).issue(SID, T0)) }),
      T0,
      'token',
    ],
    ['token still valid at 119 min', req({ body: form(token) }), T0 + 119 * MIN, 'ok'],
    ['expired token (2 h + 1 min)', req({ body: form(token) }), T0 + 121 * MIN, 'token'],
    ['token from the future', req({ body: form(guard.token(SID, T0 + 10 * MIN)) }), T0, 'token'],
    [
      'tampered time',
      req({ body: form(token.replace(/^[0-9a-z]+/, (T0 / 1000 + 3600).toString(36))) }),
      T0,
      'token',
    ],
    ['garbage token', req({ body: form('hello') }), T0, 'token'],
    ['login: origin only', req({ login: true, auth: 'none', sessionId: null }), T0, 'ok'],
    ['login cross-site', req({ login: true, auth: 'none', sessionId: null, headers: CROSS }), T0, 'origin'],
    [
      'login without origin evidence',
      req({ login: true, auth: 'none', sessionId: null, headers: {} }),
      T0,
      'origin',
    ],
    ['Basic without origin evidence (curl)', req({ auth: 'basic', sessionId: null, headers: {} }), T0, 'ok'],
    ['Basic from a cross-site page', req({ auth: 'basic', sessionId: null, headers: CROSS }), T0, 'origin'],
    [
      'Basic from a foreign Origin',
      req({ auth: 'basic', sessionId: null, headers: { origin: 'https://evil.example' } }),
      T0,
      'origin',
    ],
    ['anonymous: nothing to protect', req({ auth: 'none', sessionId: null, headers: CROSS }), T0, 'ok'],
    [
      'login via a trusted proxy: the forwarded origin counts',
      req({
        login: true,
        auth: 'none',
        sessionId: null,
        headers: { origin: 'https://proxy.example' },
        publicOrigin: 'https://proxy.example',
      }),
      T0,
      'ok',
    ],
    [
      'login via a trusted proxy from a foreign origin',
      req({
        login: true,
        auth: 'none',
        sessionId: null,
        headers: { origin: 'https://evil.example' },
        publicOrigin: 'https://proxy.example',
      }),
      T0,
      'origin',
    ],
    [
      'the forwarded origin does not outvote Sec-Fetch-Site',
      req({
        login: true,
        auth: 'none',
        sessionId: null,
        headers: { ...CROSS, origin: 'https://proxy.example' },
        publicOrigin: 'https://proxy.example',
      }),
      T0,
      'origin',
    ],
  ];
  for (const [name, request, now, expected] of cases)
    await t.test(name, () => assert.equal(verdict(request, now), expected));
});

test('key rotation keeps tokens valid', () => {
  const before = createCsrfTokens({ secrets: [SECRET] });
  const during = createCsrfTokens({ secrets: ['n'.repeat(40), SECRET] });
  assert.equal(during.verify(before.issue(SID, T0), SID, T0), 'ok');
  assert.equal(
    createCsrfTokens({ secrets: ['n'.repeat(40)] }).verify(before.issue(SID, T0), SID, T0),
    'invalid',
  );
});

test('a refusal tells people, in German and English, what to do; the API detail stays English', () => {
  const token = guard.token(SID, T0);
  const refusal = (request: CsrfRequest, now: number): CsrfError => {
    try {
      guard.check(request, now);
    } catch (e) {
      if (e instanceof CsrfError) return e;
      throw e;
    }
    throw new Error('not refused');
  };
  const expired = refusal(req({ body: { _csrf: token } }), T0 + 121 * MIN);
  assert.equal(expired.detail, 'The CSRF token has expired. Reload the form and try again.');
  assert.deepEqual(expired.localDetail, {
    de: 'Das Formular ist abgelaufen. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
    en: 'The form has expired. Reload the page and try again.',
  });
  const cross = refusal(req({ headers: CROSS, body: { _csrf: token } }), T0);
  assert.match(cross.detail ?? '', /^Cross-site request refused/);
  assert.match(cross.localDetail?.de ?? '', /von einer anderen Website/);
});

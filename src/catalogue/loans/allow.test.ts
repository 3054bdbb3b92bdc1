// Allow tells the truth at both URLs the loans route serves: the staff's list of loans due
// (`/ausleihen`, GET only) and a user's loans (`/ausleihen/{id}`, where POST borrows).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from '../../http/index.ts';
import { catalogueRewrites } from '../rewrites.ts';
import { loansResource } from './resource.ts';
import { anna, fakeLoanStore, USERS } from '../../../test/kit/catalogue/loan-fakes.ts';

async function app() {
  return createResourceApp({
    baseUrl: 'http://localhost',
    trustProxy: [],
    resources: [loansResource(fakeLoanStore())],
    rewrites: catalogueRewrites,
    displayErrors: false,
    authenticate: async () => USERS.staff,
  });
}

test('the list of loans due allows GET only: OPTIONS and a POST say so alike', async () => {
  const a = await app();
  const options = await a.inject({ method: 'OPTIONS', url: '/ausleihen' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers.allow, 'GET, HEAD, OPTIONS');
  const post = await a.inject({ method: 'POST', url: '/ausleihen', payload: { werk: 'faust' } });
  assert.equal(post.statusCode, 405);
  assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
  assert.equal((await a.inject({ method: 'GET', url: '/ausleihen.json' })).statusCode, 200);
  await a.close();
});

test("a user's loans allow POST (borrowing), by readable and script-style URL", async () => {
  const a = await app();
  for (const url of [`/ausleihen/${anna.id}`, `/ausleihen?benutzer=${anna.id}`]) {
    const options = await a.inject({ method: 'OPTIONS', url });
    assert.equal(options.headers.allow, 'GET, HEAD, POST, OPTIONS', url);
    const put = await a.inject({ method: 'PUT', url, payload: {} });
    assert.equal(put.statusCode, 405, url);
    assert.equal(put.headers.allow, 'GET, HEAD, POST, OPTIONS', url);
  }
  await a.close();
});

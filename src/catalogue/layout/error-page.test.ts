import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Problem } from '../../http/errors/index.ts';
import { html } from '../../http/representation/markup.ts';
import { fakeContext, squash } from '../../../test/kit/catalogue/fakes.ts';
import { createErrorPage, errorPage } from './error-page.ts';

const problem = (status: number, extra: Partial<Problem> = {}): Problem => ({
  type: 'about:blank',
  title: 'Not Found',
  status,
  code: 'SHELFMARK_NOT_FOUND',
  ...extra,
});

test('a full page in the layout, German title, escaped detail', () => {
  const page = squash(
    errorPage(problem(404, { detail: 'x', localDetail: { de: '<b>x</b>', en: 'x' } }), fakeContext()).text,
  );
  assert.match(page, /^<!DOCTYPE html> ?<html lang="de">/);
  assert.match(page, /<span class="status">404<\/span> Nicht gefunden/);
  assert.match(page, /&lt;b&gt;x&lt;\/b&gt;/);
  assert.match(page, /<a href="\/static\/shelfmark.css"|href="\/static\/shelfmark.css"/);
  assert.doesNotMatch(page, /rel="canonical"/);
});

test('a German page shows no English detail: its localDetail, else what the code means', () => {
  const forbidden = problem(403, { code: 'SHELFMARK_FORBIDDEN', detail: 'The error log is for staff only.' });
  const de = squash(errorPage(forbidden, fakeContext()).text);
  assert.match(de, /<p class="detail">Dafür fehlt Ihnen die Berechtigung\.<\/p>/);
  assert.doesNotMatch(de, /staff only/);
  const local = { de: 'Nur für das Personal.', en: 'Staff only.' };
  assert.match(errorPage({ ...forbidden, localDetail: local }, fakeContext()).text, /Nur für das Personal\./);
  const en = errorPage({ ...forbidden, localDetail: local }, fakeContext({ lang: 'en' })).text;
  assert.match(en, /Staff only\./);
  assert.match(errorPage(forbidden, fakeContext({ lang: 'en' })).text, /The error log is for staff only\./);
  const fields = problem(422, {
    code: 'SHELFMARK_VALIDATION_FAILED',
    errors: [{ field: 'x', detail: 'required' }],
  });
  assert.doesNotMatch(errorPage(fields, fakeContext()).text, /required/);
});

test('English uses the problem title; 422 lists field errors; 500 shows the exception', () => {
  const en = fakeContext({ lang: 'en' });
  assert.match(errorPage(problem(404), en).text, /Not Found/);
  assert.match(
    errorPage(problem(422, { errors: [{ field: 'titel', detail: 'fehlt' }] }), en).text,
    /titel<\/strong>: fehlt/,
  );
  const e = {
    class: 'TypeError',
    message: 'boom',
    file: '/src/x.ts',
    line: 7,
    stack: 'at x',
    source: '> 7 | y',
  };
  assert.match(squash(errorPage(problem(500, { exception: e }), en).text), /TypeError: boom.*\/src\/x.ts:7/);
});

test('the 403 slot holds the login form', () => {
  const page = createErrorPage({ forbidden: () => html`<form id="login"></form>` });
  assert.match(page(problem(403), fakeContext()).text, /<form id="login"><\/form>/);
  assert.doesNotMatch(page(problem(404), fakeContext()).text, /id="login"/);
});

test('a 406 links the available representations root-relative (HTML links, docs/representations.md)', () => {
  const available = [
    { type: 'application/json', label: 'JSON', url: 'https://library.example/werke.json?q=a&b' },
    { type: 'text/plain', label: 'elsewhere', url: 'https://other.example/x' },
  ];
  const page = errorPage(problem(406, { available }), fakeContext()).text;
  assert.match(page, /<a href="\/werke\.json\?q=a&amp;b" type="application\/json">JSON<\/a>/);
  assert.doesNotMatch(page, /href="https:\/\/library\.example/);
  assert.match(page, /<a href="https:\/\/other\.example\/x" type="text\/plain">elsewhere<\/a>/);
});

// Patron self-service (issue 20, item 4): "Mein Konto" in the header for whoever is signed in;
// an anonymous visitor to a fully lent work learns that signing in allows a hold; no
// "Verlängern" button once the renewals are used up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html } from '../../http/representation/markup.ts';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { MEMBER } from '../../../test/kit/catalogue/write-support.ts';
import { holdButton } from '../holds/index.ts';
import { renewForm } from '../loans/index.ts';
import type { Loan } from '../loans/index.ts';
import { layout } from './page.ts';

test('"Mein Konto" in the header for a signed-in member, leading to their account', () => {
  const page = (user: typeof MEMBER | null) =>
    layout({ title: 'T', main: html`<p>x</p>` }, fakeContext({ user, format: 'html' })).toString();
  assert.match(
    page(MEMBER),
    new RegExp(`<a class="my-account" href="/konto\\?id=${MEMBER.id}">Mein Konto</a>`),
  );
  assert.doesNotMatch(page(null), /Mein Konto/);
});

test('an anonymous visitor to a fully lent work gets a hint to sign in (and back to the work)', () => {
  const anonymous = fakeContext({ user: null, format: 'html' });
  const lent = holdButton({ slug: 'moby-dick', verfuegbar: 0 }, anonymous).toString();
  assert.match(lent, /Alle Exemplare sind ausgeliehen/);
  assert.match(
    lent,
    /<a href="\/sitzung\?zurueck=%2Fwerke%2Fmoby-dick">Anmelden, um das Werk vorzumerken<\/a>/,
  );
  assert.equal(holdButton({ slug: 'moby-dick', verfuegbar: 1 }, anonymous).toString(), '');
});

test('no "Verlängern" button once the renewals are used up; the limit is said instead', () => {
  const loan = (renewals: number): Loan => ({
    id: 3,
    person: { id: MEMBER.id, slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' },
    werk: { id: 9, slug: 'moby-dick', titel: 'Moby-Dick' },
    copy: null,
    borrowedAt: new Date('2026-11-01T00:00:00Z'),
    dueAt: new Date('2026-11-29T00:00:00Z'),
    returnedAt: null,
    renewals,
  });
  const ctx = fakeContext({ user: MEMBER, format: 'html' });
  assert.match(renewForm(loan(1), ctx, 2).toString(), />Verlängern<\/button>/);
  const used = renewForm(loan(2), ctx, 2).toString();
  assert.doesNotMatch(used, /<button/);
  assert.match(used, /Nicht mehr verlängerbar: höchstens 2-mal je Ausleihe/);
  assert.doesNotMatch(renewForm(loan(2), ctx).toString(), /<button/, 'the default limit is 2');
});

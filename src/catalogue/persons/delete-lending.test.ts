// DELETE of a person with open loans answers 409 SHELFMARK_PERSON_HAS_LOANS (ADR 0061), and the
// staff's confirmation page (`?loeschen`) says so up front instead of offering the button.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../shared/index.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { bodyOf, representationOf, run, statusOf } from '../../../test/kit/catalogue/write-support.ts';
import { personResource } from './resource.ts';

async function setup() {
  const stores = await memoryCatalogue();
  const person = await stores.persons.create({ slug: 'anna', vorname: 'Anna', nachname: 'Berger' });
  const work = await stores.works.create({ slug: 'faust', titel: 'Faust', exemplare: 2 });
  const borrowed = await stores.loans.borrow(person.id, { id: work.id });
  assert.ok(borrowed.ok);
  return { stores, person, loan: borrowed.loan, one: personResource(stores.persons) };
}

const at = { query: 'slug=anna', path: '/personen/anna' };

test('DELETE of a person with an open loan: 409 with the reason, in German for the page; nothing deleted', async () => {
  const { stores, one } = await setup();
  const result = await run(one, 'DELETE', at);
  assert.ok(result instanceof HttpError);
  assert.equal(result.status, 409);
  assert.equal(result.code, 'SHELFMARK_PERSON_HAS_LOANS');
  assert.match(result.detail ?? '', /one open loan/);
  assert.match(result.localDetail?.de ?? '', /eine offene Ausleihe/);
  const still = await stores.persons.bySlug('anna');
  assert.ok(still && 'found' in still);
});

test('once the loan is returned the person is deleted (204)', async () => {
  const { stores, person, loan, one } = await setup();
  await stores.loans.returnLoan(person.id, loan.id);
  assert.equal(statusOf(await run(one, 'DELETE', at)), 204);
});

test('the confirmation page says why up front and offers no delete button', async () => {
  const { stores, person, loan, one } = await setup();
  const page = (q: string) => run(one, 'GET', { ...at, query: `${at.query}&${q}`, format: 'html' });
  const blocked = representationOf(await page('loeschen'));
  const html = bodyOf(blocked, 'html', { query: `${at.query}&loeschen` });
  assert.match(html, /kann nicht gelöscht werden/);
  assert.match(html, /eine offene Ausleihe/);
  assert.match(html, new RegExp(`href="/ausleihen/${person.id}"`));
  assert.doesNotMatch(html, /<form class="delete"/);
  // Its Last-Modified follows the loans too: the borrow came after the person's last write.
  assert.ok(blocked.lastModified && blocked.lastModified >= loan.borrowedAt);
  // JSON stays the person's.
  assert.deepEqual(JSON.parse(bodyOf(blocked, 'json')).vorname, 'Anna');

  await stores.loans.returnLoan(person.id, loan.id);
  const free = bodyOf(representationOf(await page('loeschen')), 'html', { query: `${at.query}&loeschen` });
  assert.match(free, /<form class="delete"/);
  assert.doesNotMatch(free, /kann nicht gelöscht werden/);
});

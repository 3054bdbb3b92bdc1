// A copy's status as HTML: said once ("vorgemerkt für Anna Berger" for staff, not "vorgemerkt
// (Vorgemerkt für Anna Berger)"); the holder's name for staff only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { MEMBER, STAFF } from '../../../test/kit/catalogue/write-support.ts';
import { statusHtml } from './status-view.ts';

const anna = { id: 3, slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' };
const text = (markup: { toString(): string }) => markup.toString().replace(/<[^>]+>/g, '');

test('a held copy says "vorgemerkt" once; staff see for whom, others do not', () => {
  const held = { kind: 'vorgemerkt', person: anna } as const;
  const staff = text(statusHtml(held, fakeContext({ user: STAFF, format: 'html' })));
  assert.equal(staff, 'vorgemerkt für Anna Berger');
  assert.equal((staff.match(/vorgemerkt/gi) ?? []).length, 1);
  const member = text(statusHtml(held, fakeContext({ user: MEMBER, format: 'html' })));
  assert.equal(member, 'vorgemerkt');
  const en = text(statusHtml(held, fakeContext({ user: STAFF, format: 'html', lang: 'en' })));
  assert.equal(en, 'held for Anna Berger');
});

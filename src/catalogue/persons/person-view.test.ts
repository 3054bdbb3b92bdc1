import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext, goethe, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { personView } from './person-view.ts';

const ctx = fakeContext();

test('person XML has exactly the shape of docs/representations.md', () => {
  assert.equal(
    personView.xml(goethe, ctx).text,
    `<person>
  <image ref="https://library.example/bilder/goethe.svg"/>
  <vorname>Johann Wolfgang</vorname>
  <nachname>von Goethe</nachname>
  <username>goethe</username>
  <werke>
    <werk ref="https://library.example/werke/faust">Faust</werk>
  </werke>
</person>`,
  );
});

test('person JSON has exactly the shape of docs/representations.md, without username', () => {
  assert.equal(
    JSON.stringify(personView.json(goethe, ctx)),
    '{"image":"https://library.example/bilder/goethe.svg","vorname":"Johann Wolfgang","nachname":"von Goethe",' +
      '"werk":[{"titel":"Faust","url":"https://library.example/werke/faust"}]}',
  );
});

test('a person without account, image or works keeps the shape', async () => {
  const p = { ...goethe, username: null, image: null, werke: [] };
  assert.equal(
    personView.xml(p, ctx).text,
    `<person>
  <image ref="https://library.example/bilder/standard.svg"/>
  <vorname>Johann Wolfgang</vorname>
  <nachname>von Goethe</nachname>
  <username/>
  <werke/>
</person>`,
  );
  assert.deepEqual(personView.json(p, ctx), {
    image: 'https://library.example/bilder/standard.svg',
    vorname: 'Johann Wolfgang',
    nachname: 'von Goethe',
    werk: [],
  });
  assert.equal(await xmlErrors('person', personView.xml(p, ctx).text), '');
  assert.equal(jsonErrors('person', personView.json(p, ctx)), '');
});

test('an image stored as an absolute URL is kept', () => {
  const p = { ...goethe, image: 'https://images.example/g.jpg' };
  assert.match(personView.xml(p, ctx).text, /<image ref="https:\/\/images\.example\/g\.jpg"\/>/);
  assert.match(squash(personView.html(p, ctx).text), /src="https:\/\/images\.example\/g\.jpg"/);
});

test('person XML and JSON validate against their schemas', async () => {
  const two = {
    ...goethe,
    werke: [...goethe.werke, { id: 11, slug: 'werther', titel: 'Die Leiden des jungen Werthers' }],
  };
  assert.equal(await xmlErrors('person', personView.xml(two, ctx).text), '');
  assert.equal(jsonErrors('person', personView.json(two, ctx)), '');
  // The schemas can fail: an extra field is rejected.
  assert.notEqual(jsonErrors('person', { ...(personView.json(two, ctx) as object), username: 'x' }), '');
  assert.notEqual(await xmlErrors('person', '<person><vorname>x</vorname></person>'), '');
});

test('person HTML: heading, image paragraph with name, count, username, work links with address', () => {
  const page = squash(personView.html(goethe, ctx).text);
  assert.match(page, /<h1>Johann Wolfgang von Goethe<\/h1>/);
  const para = /<p class="person-card">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
  assert.match(
    para,
    /<img class="portrait" src="\/bilder\/goethe.svg" alt="Porträt von Johann Wolfgang von Goethe"/,
  );
  assert.match(para, /<span class="name">Johann Wolfgang von Goethe<\/span>/);
  assert.match(para, /<span class="count">1<\/span>/);
  assert.match(para, /<span class="username">goethe<\/span>/);
  assert.match(
    page,
    /<li> ?<a href="\/werke\/faust"> ?<span class="titel">Faust<\/span> <span class="address">\/werke\/faust<\/span> ?<\/a> ?<\/li>/,
  );
  assert.match(page, /<link rel="canonical" href="https:\/\/library.example\/personen\/goethe">/);
  assert.match(page, /<link rel="alternate" type="application\/xml" href="\/personen\/goethe.xml">/);
  assert.match(page, /<link rel="alternate" type="application\/json" href="\/personen\/goethe.json">/);
  assert.match(page, /<html lang="de">/);
});

test('person HTML in English, and without account', () => {
  const page = squash(personView.html({ ...goethe, username: null }, fakeContext({ lang: 'en' })).text);
  assert.match(page, /<html lang="en">/);
  assert.match(page, /alt="Portrait of Johann Wolfgang von Goethe"/);
  assert.match(page, /<span class="username none">no account<\/span>/);
});

test('every field is escaped', () => {
  const evil = { ...goethe, vorname: '<script>&', werke: [{ id: 1, slug: 'x', titel: '"a"<b>' }] };
  const out = personView.html(evil, ctx).text + personView.xml(evil, ctx).text;
  assert.doesNotMatch(out, /<script>|<b>/);
  assert.match(out, /&lt;script&gt;&amp;/);
});

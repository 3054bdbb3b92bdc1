import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html } from '../../http/representation/markup.ts';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { layout } from './page.ts';

// V8 keeps a string with no character beyond U+00FF in one byte per character and encodes it
// as UTF-8 several times faster than a two-byte string: the layout's own text must not turn
// every page into one (page.ts writes its dash as a character reference).
test('the layout’s own text stays within Latin-1, in both languages and every section', () => {
  for (const lang of ['de', 'en'] as const)
    for (const section of ['home', 'persons', 'works', undefined] as const) {
      const page = layout(
        {
          title: 'Straße',
          main: html`<p>Grüße</p>`,
          canonicalPath: '/personen/x',
          searchValue: 'Müller',
          ...(section && { section }),
        },
        { ...fakeContext(), lang },
      ).text;
      const beyond = /[^\t\n\x20-\xff]/.exec(page);
      assert.equal(beyond, null, `${lang} ${section}: ${JSON.stringify(beyond?.[0])} in the layout`);
      assert.match(page, /<title>Straße &#8211; Shelfmark<\/title>/);
    }
});

// The layout keeps its own text per language, base path and section (ADR 0101): a page must
// never show another combination's text, whatever was rendered before it.
test('the kept layout text follows the language, the base path and the section of each page', () => {
  const combinations = [
    { lang: 'de', basePath: '', section: 'persons' },
    { lang: 'en', basePath: '', section: 'persons' },
    { lang: 'de', basePath: '/katalog', section: 'persons' },
    { lang: 'de', basePath: '', section: 'works' },
    { lang: 'en', basePath: '/katalog', section: 'home' },
  ] as const;
  // Twice round: the second pass reads what the first kept.
  for (const { lang, basePath, section } of [...combinations, ...combinations]) {
    const ctx = { ...fakeContext({ basePath }), lang };
    const page = layout({ title: 'T', main: html`<p>m</p>`, section }, ctx).text;
    const label = `${lang} ${basePath} ${section}`;
    assert.match(page, new RegExp(`<html lang="${lang}">`), label);
    assert.ok(page.includes(`<link rel="stylesheet" href="${basePath}/static/shelfmark.css" />`), label);
    assert.ok(page.includes(`action="${basePath}/werke"`), label);
    assert.ok(page.includes(lang === 'de' ? '>Personen</a>' : '>People</a>'), label);
    const current = [...page.matchAll(/<li><a href="([^"]*)" {2}aria-current="page">/g)].map((m) => m[1]);
    const expected = { home: `${basePath}/`, persons: `${basePath}/personen`, works: `${basePath}/werke` };
    assert.deepEqual(current, [expected[section]], label);
  }
});

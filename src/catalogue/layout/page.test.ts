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

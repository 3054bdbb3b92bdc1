// The built-in error page: HTML links are root-relative (docs/representations.md), also for a 406's list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLinks } from '../links/links.ts';
import { builtInErrorPage, rootRelative } from './error-page.ts';

const links = createLinks({ origin: 'https://library.example', basePath: '/katalog' });

test('rootRelative keeps path, query and fragment of an own URL, leaves others alone', () => {
  assert.equal(
    rootRelative('https://library.example/katalog/werke.json?q=x#a', links),
    '/katalog/werke.json?q=x#a',
  );
  assert.equal(
    rootRelative('https://other.example/katalog/werke', links),
    'https://other.example/katalog/werke',
  );
  assert.equal(
    rootRelative('http://library.example/katalog/werke', links),
    'http://library.example/katalog/werke',
  );
  assert.equal(rootRelative('/schon/relativ', links), '/schon/relativ');
});

test('the built-in 406 page links the available representations root-relative', () => {
  const page = builtInErrorPage(
    {
      type: 'about:blank',
      title: 'Not Acceptable',
      status: 406,
      code: 'SHELFMARK_NOT_ACCEPTABLE',
      available: [
        {
          type: 'application/json',
          label: 'JSON',
          url: 'https://library.example/katalog/personen/goethe.json',
        },
      ],
    },
    { lang: 'en', links, path: '/personen/goethe' },
  ).text;
  assert.match(page, /<a href="\/katalog\/personen\/goethe\.json" type="application\/json">JSON<\/a>/);
  assert.doesNotMatch(page, /href="https:/);
});

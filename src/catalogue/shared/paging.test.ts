import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { listQuery, pageLinks, pagePath } from './paging.ts';
import { suffixPath } from './urls.ts';

test('listQuery reads q, cursors and a capped page size', () => {
  assert.deepEqual(listQuery(fakeContext({ query: 'q=+faust+&nach=abc&vor=x&anzahl=500' })), {
    q: 'faust',
    after: 'abc',
    before: undefined,
    limit: 100,
  });
  assert.deepEqual(listQuery(fakeContext({ query: 'q=&vor=x&anzahl=zwei' })), {
    q: undefined,
    after: undefined,
    before: 'x',
    limit: 20,
  });
  assert.equal(listQuery(fakeContext({ query: 'anzahl=0' })).limit, 1);
});

test('page paths keep the search word and size, encode cursors, leave defaults out', () => {
  assert.equal(pagePath('/werke', { limit: 20 }), '/werke');
  assert.equal(
    pagePath('/werke', { q: 'a b&c', after: 'x/y=', limit: 5 }),
    '/werke?q=a+b%26c&nach=x%2Fy%3D&anzahl=5',
  );
  assert.deepEqual(
    pageLinks(
      '/werke',
      { q: 'f', after: 'k', limit: 20 },
      { items: [], next: 'n', prev: 'p' },
      { format: 'json', formatSource: 'accept' },
    ),
    {
      prev: '/werke?q=f&vor=p',
      next: '/werke?q=f&nach=n',
    },
  );
});

test('page links keep a format chosen by suffix or ?format=, not one chosen by Accept', () => {
  const page = { items: [], next: 'n', prev: 'p' };
  const links = (format: 'html' | 'xml' | 'json', formatSource: 'suffix' | 'query' | 'accept') =>
    pageLinks('/werke', { limit: 5 }, page, { format, formatSource });
  assert.deepEqual(links('json', 'suffix'), {
    prev: '/werke.json?vor=p&anzahl=5',
    next: '/werke.json?nach=n&anzahl=5',
  });
  assert.deepEqual(links('xml', 'query'), {
    prev: '/werke?vor=p&anzahl=5&format=xml',
    next: '/werke?nach=n&anzahl=5&format=xml',
  });
  assert.deepEqual(links('html', 'suffix').next, '/werke.html?nach=n&anzahl=5');
  assert.deepEqual(links('xml', 'accept').next, '/werke?nach=n&anzahl=5');
});

test('suffix URLs for alternates', () => {
  assert.equal(suffixPath('/personen/goethe', 'xml'), '/personen/goethe.xml');
  assert.equal(suffixPath('/werke?q=x', 'json'), '/werke.json?q=x');
  assert.equal(suffixPath('/', 'json'), '/index.json');
  assert.equal(suffixPath('/?q=x', 'xml'), '/index.xml?q=x');
});

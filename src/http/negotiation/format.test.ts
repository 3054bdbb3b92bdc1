import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseErrorFormat, chooseFormat, negotiateAccept, parseFormat, unofferedFormat } from './format.ts';

const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CURL = '*/*';

const table: [string | undefined, string | null][] = [
  [CHROME, 'html'],
  [FIREFOX, 'html'],
  [SAFARI, 'html'],
  [CURL, 'html'],
  [undefined, 'html'],
  ['', 'html'],
  ['   ', 'html'],
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['application/json', 'json'],
  ['APPLICATION/JSON', 'json'],
  ['application/json; charset=utf-8', 'json'],
  ['application/json; charset=latin1', null],
  ['application/xml;q=0.9,*/*;q=0.8', 'xml'],
  ['application/json, text/html;q=0.5', 'json'],
  ['text/html;q=0.5, application/json', 'json'],
  ['application/json;q=0.8, application/xml;q=0.9', 'xml'],
  // equal q: the more specific range wins, then header order
  ['text/*, application/json', 'json'],
  ['application/xml, application/json', 'xml'],
  ['application/json, application/xml', 'json'],
  ['text/*', 'html'],
  ['application/*', 'xml'],
  ['text/html;q=0', null],
  ['text/html;q=0, */*', 'xml'],
  ['text/html;q=0, application/xhtml+xml', 'html'],
  ['*/*;q=0', null],
  ['image/png', null],
  ['application/problem+json', null],
  ['garbage', null],
  ['text/html, garbage', 'html'],
  [',,,;;;', null],
];

for (const [accept, expected] of table) {
  test(`Accept ${JSON.stringify(accept)} → ${expected ?? '406'}`, () => {
    assert.equal(negotiateAccept(accept), expected);
  });
}

test('the suffix beats ?format= and Accept', () => {
  assert.deepEqual(chooseFormat({ suffix: 'json', formatParam: 'xml', accept: 'text/html' }), {
    ok: true,
    format: 'json',
    source: 'suffix',
  });
});

test('?format= beats Accept, even an unacceptable one', () => {
  assert.deepEqual(chooseFormat({ suffix: null, formatParam: 'xml', accept: 'image/png' }), {
    ok: true,
    format: 'xml',
    source: 'query',
  });
});

test('Accept decides otherwise; nothing acceptable is reported, not guessed', () => {
  assert.deepEqual(chooseFormat({ suffix: null, formatParam: null, accept: 'application/json' }), {
    ok: true,
    format: 'json',
    source: 'accept',
  });
  assert.deepEqual(chooseFormat({ suffix: null, formatParam: null, accept: 'text/html;q=0' }), {
    ok: false,
    reason: 'not-acceptable',
  });
});

test('the formats are html, xml, json and the extra ones some resources offer', () => {
  assert.equal(parseFormat('json'), 'json');
  assert.equal(parseFormat('ris'), 'ris');
  assert.equal(parseFormat('atom'), 'atom');
  assert.equal(parseFormat('JSON'), null);
  assert.equal(parseFormat('pdf'), null);
  assert.equal(parseFormat(''), null);
  assert.equal(parseFormat(null), null);
});

test('only the first 32 ranges of a hostile header count', () => {
  assert.equal(negotiateAccept('image/png,'.repeat(40) + 'application/json'), null);
  assert.equal(negotiateAccept('image/png,'.repeat(20) + 'application/json'), 'json');
});

test('extra formats: offered only by the resources that have them, after the three (ADR 0095)', () => {
  const citations = ['ris', 'bib'] as const;
  assert.equal(negotiateAccept('application/x-bibtex'), null);
  assert.equal(negotiateAccept('application/x-bibtex', citations), 'bib');
  assert.equal(
    negotiateAccept('application/x-research-info-systems;q=0.9, application/json;q=0.5', citations),
    'ris',
  );
  assert.equal(negotiateAccept('application/atom+xml', ['atom']), 'atom');
  // Wildcards still mean HTML first, `application/*` XML: the extras never win a tie.
  assert.equal(negotiateAccept('*/*', citations), 'html');
  assert.equal(negotiateAccept('application/*', ['atom']), 'xml');
  const accept = { suffix: null, formatParam: null, accept: 'application/x-bibtex' };
  assert.deepEqual(chooseFormat(accept), { ok: false, reason: 'not-acceptable' });
  assert.deepEqual(chooseFormat(accept, citations), { ok: true, format: 'bib', source: 'accept' });
});

test('an extra format named by suffix or ?format= is 404 where the resource lacks it', () => {
  const bySuffix = { suffix: 'ris' as const, formatParam: null, accept: undefined };
  assert.equal(unofferedFormat(bySuffix), true);
  assert.equal(unofferedFormat(bySuffix, ['ris', 'bib']), false);
  assert.equal(unofferedFormat({ suffix: null, formatParam: 'atom', accept: undefined }, ['ris']), true);
  assert.equal(unofferedFormat({ suffix: 'json', formatParam: null, accept: undefined }), false);
});

test('an error at an extra format URL is chosen by Accept alone: problems have no RIS form', () => {
  assert.deepEqual(chooseErrorFormat({ suffix: 'ris', formatParam: null, accept: undefined }), {
    format: 'html',
    source: 'accept',
  });
  assert.deepEqual(
    chooseErrorFormat({ suffix: null, formatParam: 'bib', accept: 'application/problem+json' }),
    { format: 'json', source: 'accept' },
  );
  assert.deepEqual(chooseErrorFormat({ suffix: 'xml', formatParam: null, accept: undefined }), {
    format: 'xml',
    source: 'suffix',
  });
});

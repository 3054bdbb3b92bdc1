import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseForm } from './form.ts';
import { HttpError } from '../errors/index.ts';
import { parseJsonFields } from './json.ts';
import { parseXmlFields } from './xml.ts';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

function rejects(fn: () => unknown, status: number, code: string, detail?: RegExp): void {
  assert.throws(
    fn,
    (e: unknown) =>
      e instanceof HttpError &&
      e.status === status &&
      e.code === code &&
      (!detail || detail.test(e.detail ?? '')),
  );
}

test('form, JSON and XML with the same field names give the same object', () => {
  const expected = {
    vorname: 'Johann Wolfgang',
    nachname: 'von Goethe',
    werk: ['https://x.example/werke/faust', 'tasso'],
  };
  const form = parseForm(
    'vorname=Johann+Wolfgang&nachname=von%20Goethe&werk=https%3A%2F%2Fx.example%2Fwerke%2Ffaust&werk=tasso',
  );
  const json = parseJsonFields(JSON.stringify(expected));
  const xml = parseXmlFields(
    '<?xml version="1.0" encoding="UTF-8"?>\n<person>\n  <vorname>Johann Wolfgang</vorname>\n  <nachname>von Goethe</nachname>\n' +
      '  <werk ref="https://x.example/werke/faust">Faust</werk>\n  <werk>tasso</werk>\n</person>',
  );
  for (const fields of [form, json, xml]) assert.deepEqual(plain(fields), expected);
});

test('form bodies', async (t) => {
  const cases: [string, unknown][] = [
    ['', {}],
    ['a=1&a=2&a=3', { a: ['1', '2', '3'] }],
    ['flag&x=', { flag: '', x: '' }],
    ['k=a%3Db%26c', { k: 'a=b&c' }],
    ['%C3%A4=%E2%82%AC', { ä: '€' }],
    ['__proto__=x&constructor=y', { ['__proto__']: 'x', constructor: 'y' }],
  ];
  for (const [body, expected] of cases) {
    await t.test(body || '(empty)', () => assert.deepEqual(plain(parseForm(body)), plain(expected)));
  }
  const poisoned = parseForm('__proto__=x');
  assert.equal(Object.getPrototypeOf(poisoned), null);
  assert.equal(({} as Record<string, unknown>).x, undefined);
  rejects(() => parseForm('a=%zz'), 400, 'SHELFMARK_BODY_MALFORMED');
  rejects(() => parseForm('a=%C3%28'), 400, 'SHELFMARK_BODY_MALFORMED');
});

test('JSON bodies', () => {
  assert.deepEqual(plain(parseJsonFields('{"n": 3, "ok": true, "x": null}')), { n: 3, ok: true, x: null });
  rejects(() => parseJsonFields('{"a":'), 400, 'SHELFMARK_BODY_MALFORMED');
  rejects(() => parseJsonFields(''), 400, 'SHELFMARK_BODY_MALFORMED');
  rejects(() => parseJsonFields('{"__proto__": {"admin": true}}'), 400, 'SHELFMARK_BODY_MALFORMED');
  rejects(
    () => parseJsonFields('{"a": {"constructor": {"prototype": {}}}}'),
    400,
    'SHELFMARK_BODY_MALFORMED',
  );
  rejects(() => parseJsonFields('[1,2]'), 422, 'SHELFMARK_VALIDATION_FAILED');
  rejects(() => parseJsonFields('"text"'), 422, 'SHELFMARK_VALIDATION_FAILED');
});

const BILLION_LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]><person><vorname>&lol3;</vorname></person>';
const EXTERNAL =
  '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><p><v>&xxe;</v></p>';

test('XML bodies: refused', async (t) => {
  const cases: [string, string, number, string][] = [
    ['billion laughs', BILLION_LAUGHS, 400, 'SHELFMARK_XML_DOCTYPE'],
    ['external entity', EXTERNAL, 400, 'SHELFMARK_XML_DOCTYPE'],
    ['plain DOCTYPE', '<!DOCTYPE person><person/>', 400, 'SHELFMARK_XML_DOCTYPE'],
    ['lower-case doctype', '<!doctype person><person/>', 400, 'SHELFMARK_XML_DOCTYPE'],
    ['undeclared entity', '<p><v>&nbsp;</v></p>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['bare ampersand', '<p><v>a & b</v></p>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['char ref to NUL', '<p><v>&#0;</v></p>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['unclosed', '<p><v>1</p>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['two roots', '<p/><q/>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['not XML', 'hello', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['empty', '', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['poison tag', '<p><constructor>x</constructor></p>', 400, 'SHELFMARK_BODY_MALFORMED'],
    ['too deep', '<a>'.repeat(40) + '</a>'.repeat(40), 400, 'SHELFMARK_BODY_MALFORMED'],
    [
      'latin-1 declared',
      '<?xml version="1.0" encoding="ISO-8859-1"?><p/>',
      415,
      'SHELFMARK_UNSUPPORTED_MEDIA_TYPE',
    ],
  ];
  for (const [name, xml, status, code] of cases) {
    const doctype = code === 'SHELFMARK_XML_DOCTYPE';
    await t.test(name, () =>
      rejects(
        () => parseXmlFields(xml),
        status,
        doctype ? 'SHELFMARK_BODY_MALFORMED' : code,
        doctype ? /DOCTYPE/ : undefined,
      ),
    );
  }
});

test('XML bodies: mapping', async (t) => {
  const cases: [string, string, unknown][] = [
    [
      'entities and char refs',
      '<p><v>A &amp; B &lt;&#65;&#x42;&quot;&apos;&gt;</v></p>',
      { v: 'A & B <AB"\'>' },
    ],
    ['CDATA is literal', '<p><v><![CDATA[&amp;<x>]]></v></p>', { v: '&amp;<x>' }],
    ['empty element', '<p><v/><w></w></p>', { v: '', w: '' }],
    [
      'ref wins, other attributes ignored',
      '<p><image ref="https://x/a?b=1&amp;c=2" alt="z">label</image></p>',
      { image: 'https://x/a?b=1&c=2' },
    ],
    ['nested', '<p><werke><werk ref="a"/><werk ref="b"/></werke></p>', { werke: { werk: ['a', 'b'] } }],
    ['namespaces dropped', '<p xmlns="urn:x" xmlns:f="urn:f"><f:v>1</f:v></p>', { v: '1' }],
    ['comments and PIs ignored', '<!-- c --><p><?pi x?><v>1</v><!-- d --></p>', { v: '1' }],
    ['BOM-free text, surrounding whitespace trimmed', '<p>\n <v>  x  </v>\n</p>', { v: 'x' }],
  ];
  for (const [name, xml, expected] of cases)
    await t.test(name, () => assert.deepEqual(plain(parseXmlFields(xml)), expected));
});

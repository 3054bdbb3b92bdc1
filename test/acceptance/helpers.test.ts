// The acceptance tests' own helpers must be able to say "no": link extraction finds what is
// there, and the batch validators reject invalid documents and name them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipUnless } from '../support/requirements.ts';
import { decodeAttribute, htmlLinks, jsonLinks, linkHeaders, linkTarget, xmlLinks } from './links.ts';
import { formatOf, htmlProblems, received, schemaProblems } from './validity.ts';
import { parseXml } from './xml-tree.ts';

describe('links', () => {
  test('HTML href and src, with character references undone', () => {
    const found = htmlLinks('<a\n  href="/werke?q=a&amp;b=1">x</a><img src="/bilder/x.svg" alt="">');
    assert.deepEqual(
      found.map((l) => l.url),
      ['/werke?q=a&b=1', '/bilder/x.svg'],
    );
  });
  test('XML ref attributes', () => {
    const found = xmlLinks(
      '<werke><werk ref="https://x.example/werke/a">A</werk><naechste ref="https://x.example/werke?nach=1&amp;anzahl=3"/></werke>',
    );
    assert.deepEqual(
      found.map((l) => l.url),
      ['https://x.example/werke/a', 'https://x.example/werke?nach=1&anzahl=3'],
    );
  });
  test('JSON url fields and URL strings, but not other text', () => {
    const found = jsonLinks({
      titel: 'Faust',
      image: 'https://x.example/a.svg',
      werk: [{ url: '/relative' }],
    });
    assert.deepEqual(found, [
      { where: '$.image', url: 'https://x.example/a.svg' },
      { where: '$.werk[0].url', url: '/relative' },
    ]);
  });
  test('Link headers', () => {
    const header = '<https://x.example/p>; rel="canonical", <https://x.example/s.xsd>; rel="describedby"';
    assert.deepEqual(linkHeaders(header), [
      { rel: 'canonical', url: 'https://x.example/p' },
      { rel: 'describedby', url: 'https://x.example/s.xsd' },
    ]);
    assert.equal(linkTarget(header, 'next'), undefined);
    assert.equal(decodeAttribute('&#39;&#x27;&quot;'), `''"`);
  });
  test('an ordered XML tree', () => {
    const tree = parseXml('<?xml version="1.0"?><a x="1"><b>t &#39;s</b><c/></a>');
    assert.equal(tree.name, 'a');
    assert.deepEqual(tree.attributes, { x: '1' });
    assert.deepEqual(
      tree.children.map((child) => [child.name, child.text]),
      [
        ['b', "t 's"],
        ['c', ''],
      ],
    );
  });
});

describe('validators', () => {
  const XSD = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="ok" type="xs:string"/></xs:schema>`;
  const JSON_SCHEMA = JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['a'],
    additionalProperties: false,
    properties: { a: { type: 'string' } },
  });
  const JSON_2020 = JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'array',
  });
  const JSON_DRAFT_07 = JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#' });
  const schemas: Record<string, string> = {
    'x.xsd': XSD,
    'x.json': JSON_SCHEMA,
    'y.json': JSON_2020,
    'z.json': JSON_DRAFT_07,
  };
  const fetchSchema = async (url: string) => schemas[url] ?? assert.fail(`no schema ${url}`);

  test('media types', () => {
    assert.equal(formatOf('application/problem+json; charset=utf-8'), 'json');
    assert.equal(formatOf('text/html; charset=utf-8'), 'html');
    assert.equal(formatOf('application/schema+json'), 'other');
  });

  test('XML and JSON: valid documents pass, invalid ones are named', skipUnless('xmllint'), async () => {
    const docs = [
      received('good xml', 'application/xml', '<x.xsd>; rel="describedby"', '<ok>fine</ok>'),
      received('bad xml', 'application/xml', '<x.xsd>; rel="describedby"', '<nope/>'),
      received('good json', 'application/json', '<x.json>; rel="describedby"', '{"a":"b"}'),
      received('bad json', 'application/json', '<x.json>; rel="describedby"', '{"a":1,"b":2}'),
      received('2020 json', 'application/json', '<y.json>; rel="describedby"', '{}'),
      received('no schema', 'application/json', null, '{}'),
      received('draft-07 json', 'application/json', '<z.json>; rel="describedby"', '{}'),
    ];
    const problems = await schemaProblems(docs, fetchSchema);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems[0]!, /^bad json: invalid against x\.json/);
    assert.match(problems[1]!, /^2020 json: invalid against y\.json/);
    assert.match(problems[2]!, /^no schema: JSON without Link rel="describedby"/);
    assert.match(problems[3]!, /^draft-07 json: invalid against z\.json:\nunknown JSON Schema dialect/);
    assert.match(problems[4]!, /^bad xml: invalid against x\.xsd/);
  });

  test('HTML: a broken page is reported, a valid one is not', skipUnless('java'), async () => {
    const valid = '<!DOCTYPE html><html lang="de"><head><title>t</title></head><body><p>ok</p></body></html>';
    const broken =
      '<!DOCTYPE html><html lang="de"><head><title>t</title></head><body><p><div>x</p></body></html>';
    const problems = await htmlProblems([
      received('valid', 'text/html', null, valid),
      received('broken', 'text/html', null, broken),
    ]);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /^broken:/);
  });
});

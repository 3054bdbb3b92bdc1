import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { skipUnless } from './requirements.ts';
import { validateXml } from './xml.ts';

const xsd = fileURLToPath(new URL('fixtures/book.xsd', import.meta.url));

test('validateXml accepts a document that matches the schema', skipUnless('xmllint'), async () => {
  const result = await validateXml('<book ref="https://x.example/b/1"><titel>Faust</titel></book>', xsd);
  assert.deepEqual(result, { ok: true, errors: '' });
});

test('validateXml names the element that breaks the schema', skipUnless('xmllint'), async () => {
  const result = await validateXml('<book ref="https://x.example/b/1"><jahr>1808</jahr></book>', xsd);
  assert.equal(result.ok, false);
  assert.match(result.errors, /document:1: .*Element 'jahr'.*Expected is \( titel \)/);
  assert.doesNotMatch(result.errors, /shelfmark-xml-/);
});

test('validateXml rejects a document that is not well-formed', skipUnless('xmllint'), async () => {
  const result = await validateXml('<book ref="x"><titel>Faust</book>', xsd);
  assert.equal(result.ok, false);
  assert.match(result.errors, /mismatch/i);
});

test('validateXml never fetches external entities (--nonet)', skipUnless('xmllint'), async () => {
  const xml =
    '<!DOCTYPE book [<!ENTITY e SYSTEM "http://127.0.0.1:9/x">]><book ref="https://x.example/"><titel>&e;</titel></book>';
  const result = await validateXml(xml, xsd);
  assert.equal(result.ok, false);
  assert.match(result.errors, /Attempt to load network entity/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJson } from './json.ts';

const person = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['vorname', 'nachname', 'werk'],
  additionalProperties: false,
  properties: {
    image: { type: 'string', format: 'uri' },
    vorname: { type: 'string' },
    nachname: { type: 'string' },
    werk: {
      type: 'array',
      items: { $ref: 'https://shelfmark.test/schema/link.json' },
    },
  },
};
const link = {
  $id: 'https://shelfmark.test/schema/link.json',
  type: 'object',
  required: ['titel', 'url'],
  properties: { titel: { type: 'string' }, url: { type: 'string', format: 'uri' } },
};

const goethe = {
  image: 'https://library.example/bilder/goethe.jpg',
  vorname: 'Johann Wolfgang',
  nachname: 'von Goethe',
  werk: [{ titel: 'Faust', url: 'https://library.example/werke/faust' }],
};

test('validateJson accepts a value that matches a 2020-12 schema with references', () => {
  assert.deepEqual(validateJson(goethe, person, [link]), { ok: true, errors: '' });
});

test('validateJson lists every problem with its path', () => {
  const result = validateJson({ ...goethe, username: 'goethe', werk: [{ titel: 'Faust' }] }, person, [link]);
  assert.equal(result.ok, false);
  assert.match(result.errors, /^\(root\) must NOT have additional properties .*username/m);
  assert.match(result.errors, /^\/werk\/0 must have required property 'url'/m);
});

test('validateJson checks formats', () => {
  const result = validateJson({ ...goethe, image: 'not a url' }, person, [link]);
  assert.equal(result.ok, false);
  assert.match(result.errors, /^\/image must match format "uri"/m);
});

test('validateJson speaks draft 2020-12 (prefixItems)', () => {
  const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
  assert.equal(validateJson(['a', 1], pair).ok, true);
  assert.equal(validateJson(['a', 'b'], pair).ok, false);
  assert.equal(validateJson(['a', 1, 2], pair).ok, false);
});

test('validateJson throws on a schema with an unknown keyword', () => {
  assert.throws(() => validateJson({}, { type: 'object', requird: ['x'] }), /unknown keyword/);
});

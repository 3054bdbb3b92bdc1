// Hoisting a served schema's $defs into OpenAPI components (ADR 0074) and back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCHEMA_NAMES, readSchema } from '../schemas/index.ts';
import { hoisted, unhoisted } from './schemas.ts';

const URL = 'https://library.example/schema/x.json';

test('$defs become {schema}.{def} components and the references point there', () => {
  const served = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'x.json',
    type: 'object',
    properties: { a: { $ref: '#/$defs/link' }, b: { items: { $ref: '#/$defs/pair/properties/left' } } },
    $defs: {
      link: { type: 'string' },
      pair: { type: 'object', properties: { left: { $ref: '#/$defs/link' } } },
    },
  };
  assert.deepEqual(hoisted('x', served, URL), {
    x: {
      type: 'object',
      properties: {
        a: { $ref: '#/components/schemas/x.link' },
        b: { items: { $ref: '#/components/schemas/x.pair/properties/left' } },
      },
      externalDocs: { description: 'Served as', url: URL },
    },
    'x.link': { type: 'string' },
    'x.pair': { type: 'object', properties: { left: { $ref: '#/components/schemas/x.link' } } },
  });
});

test('a reference the tools could not resolve is refused', () => {
  assert.throws(() => hoisted('x', { $ref: 'other.json#/a' }, URL), /other\.json/);
});

test('every served schema comes back unchanged (but $schema and $id)', () => {
  for (const name of SCHEMA_NAMES) {
    const {
      $schema: _dialect,
      $id: _id,
      ...served
    } = JSON.parse(readSchema(name, 'json')) as Record<string, unknown>;
    const components = hoisted(name, served, URL);
    assert.deepEqual(unhoisted(name, components), served, name);
    assert.doesNotMatch(JSON.stringify(components), /#\/\$defs\//, name);
  }
});

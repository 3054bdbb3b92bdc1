// A field spec as JSON Schema (for /openapi.json): what checkFields accepts, the schema accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldSpecFormSchema, fieldSpecJsonSchema } from './schema.ts';
import { checkFields, type FieldSpec } from './validate.ts';

const SPEC = {
  titel: { type: 'string', required: true, maxLength: 200 },
  jahr: { type: 'int', min: -3000, max: 2100 },
  person: { type: 'url-or-slug', many: true },
} as const satisfies FieldSpec;

test('JSON: types, bounds and required fields from the spec; optional ones take null', () => {
  assert.deepEqual(fieldSpecJsonSchema(SPEC), {
    type: 'object',
    properties: {
      titel: { type: 'string', maxLength: 200, minLength: 1 },
      jahr: { type: ['integer', 'null'], minimum: -3000, maximum: 2100 },
      person: {
        type: 'array',
        items: {
          type: 'string',
          description: 'An http(s) URL or a slug (^[a-z0-9]+(?:-[a-z0-9]+)*$).',
          maxLength: 2048,
        },
      },
    },
    required: ['titel'],
  });
  // The same limits the check uses.
  assert.equal(checkFields({ titel: 'x', jahr: 2101 }, SPEC).ok, false);
  assert.equal(checkFields({ titel: 'x', jahr: null }, SPEC).ok, true);
});

test('a form: numbers as digits, a repeated field once or many times', () => {
  const form = fieldSpecFormSchema(SPEC) as { properties: Record<string, unknown>; required: string[] };
  assert.deepEqual(form.required, ['titel']);
  assert.deepEqual(form.properties.jahr, { type: 'string', pattern: '^\\s*-?\\d{1,16}\\s*$' });
  const one = {
    type: 'string',
    description: 'An http(s) URL or a slug (^[a-z0-9]+(?:-[a-z0-9]+)*$).',
    maxLength: 2048,
  };
  assert.deepEqual(form.properties.person, { anyOf: [one, { type: 'array', items: one }] });
});

// The schema files are the ones the registry's URLs name (ADR 0097), and every catalogue JSON
// Schema is draft 2020-12 (like the layer's problem.json) and compiles under Ajv 2020 in strict
// mode: a draft-07 leftover (`definitions`, a tuple `items`) fails here.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { validateJson } from '../../../test/support/json.ts';
import { readSchema, SCHEMA_DIR, SCHEMA_NAMES } from './index.ts';

test('a schema file is here for each schema a URL names, and no other', () => {
  const files = readdirSync(SCHEMA_DIR).filter((f) => /\.(xsd|json)$/.test(f));
  const declared = SCHEMA_NAMES.flatMap((name) => [`${name}.json`, `${name}.xsd`]);
  assert.deepEqual(
    files.filter((f) => !declared.includes(f)),
    [],
    'files no URL of the registry names (registry/urls.ts, `schema`): not served',
  );
  assert.deepEqual(
    declared.filter((f) => !files.includes(f)),
    [],
    'schemas the registry names without their file',
  );
});

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

for (const name of SCHEMA_NAMES) {
  test(`${name}.json is a strict draft 2020-12 schema`, () => {
    const text = readSchema(name, 'json');
    const schema = JSON.parse(text) as Record<string, unknown>;
    assert.equal(schema.$schema, DRAFT_2020_12);
    assert.doesNotMatch(text, /"definitions"|"additionalItems"|"dependencies"/);
    // Compiling throws on an unknown keyword; an empty object is not a valid representation.
    assert.equal(validateJson({ unerwartet: true }, schema).ok, false);
  });
}

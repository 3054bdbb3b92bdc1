// Like fastify's docs test: every error code must be documented in docs/errors.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from './codes.ts';

const doc = readFileSync(join(import.meta.dirname, '../../../docs/errors.md'), 'utf8');

for (const [code, { status }] of Object.entries(ERROR_CODES)) {
  test(`docs/errors.md documents ${code}`, () => {
    const heading = doc.split('\n').find((line) => line.startsWith('### ') && line.includes(`\`${code}\``));
    assert.ok(heading, `no "### \`${code}\`" heading`);
    assert.match(heading, new RegExp(`\\b${status}\\b`), `${code}: heading should name status ${status}`);
  });
}

test('docs/errors.md documents no code that does not exist', () => {
  const documented = [...doc.matchAll(/^### `(SHELFMARK_[A-Z0-9_]+)`/gm)].map((m) => m[1]);
  assert.deepEqual(
    documented.filter((c) => !(c! in ERROR_CODES)),
    [],
  );
});

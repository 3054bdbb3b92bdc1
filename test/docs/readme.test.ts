// The README states facts the code decides; these tests keep the two from drifting apart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { OPTIONS } from '../../src/config/index.ts';
import { DEMO_ACCOUNTS } from '../../src/catalogue/demo/index.ts';
import { AUTHORS } from '../../src/catalogue/demo/authors.ts';
import { WORKS } from '../../src/catalogue/demo/works.ts';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test("the README's configuration table lists every option's variable and flag", () => {
  for (const spec of Object.values(OPTIONS)) {
    assert.ok(readme.includes(`\`${spec.env}\``), `README names ${spec.env}`);
    assert.ok(readme.includes(`\`--${spec.flag}\``), `README names --${spec.flag}`);
  }
});

test('the README counts the demo catalogue right and names every demo account', () => {
  assert.match(
    readme,
    new RegExp(`\\b${AUTHORS.length} public-domain authors and ${WORKS.length} of their works`),
  );
  const accounts = /It prints the demo accounts\s+\(password = username: ([^)]*)\)/.exec(readme)?.[1] ?? '';
  const named = [...accounts.matchAll(/`([a-z]+)`/g)].map((m) => m[1]).sort();
  assert.deepEqual(named, DEMO_ACCOUNTS.map((a) => a.username).sort());
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inCi, missingRequirement, skipUnless } from './requirements.ts';

function withEnv(vars: Record<string, string | undefined>, run: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  assign(vars);
  try {
    run();
  } finally {
    assign(saved);
  }
}

test('a missing database URL skips PostgreSQL suites locally, with the reason', () => {
  withEnv({ CI: undefined, SHELFMARK_TEST_DATABASE_URL: undefined }, () => {
    const message = 'PostgreSQL suites skipped: SHELFMARK_TEST_DATABASE_URL not set';
    assert.equal(missingRequirement('postgres'), message);
    assert.deepEqual(skipUnless('postgres'), { skip: message });
  });
});

test('in CI nothing skips, so a missing tool fails its tests', () => {
  withEnv({ CI: 'true', SHELFMARK_TEST_DATABASE_URL: undefined }, () => {
    assert.ok(missingRequirement('postgres'));
    assert.deepEqual(skipUnless('postgres'), { skip: false });
  });
});

test('a tool that is not on the PATH is reported missing', () => {
  withEnv({ CI: undefined, PATH: '/nonexistent' }, () => {
    assert.equal(
      missingRequirement('xmllint'),
      'XML Schema checks skipped: xmllint not found (Debian package libxml2-utils)',
    );
    assert.match(
      String(skipUnless('postgres', 'java').skip),
      /^(PostgreSQL suites|HTML validity checks) skipped/,
    );
  });
});

test('present requirements do not skip', () => {
  withEnv({ CI: undefined, SHELFMARK_TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1/test' }, () => {
    assert.equal(missingRequirement('postgres'), undefined);
    assert.deepEqual(skipUnless('postgres'), { skip: false });
  });
});

test('CI is on for CI=true or CI=1 only', () => {
  assert.equal(inCi({ CI: 'true' }), true);
  assert.equal(inCi({ CI: '1' }), true);
  assert.equal(inCi({ CI: 'false' }), false);
  assert.equal(inCi({}), false);
});

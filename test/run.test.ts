// test/run.ts end to end, on the helpers' own test files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function runTests(args: string[], env: Record<string, string | undefined>) {
  const result = spawnSync(process.execPath, ['test/run.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    // NODE_TEST_CONTEXT would make the inner node --test think it runs inside this test and skip its files.
    env: {
      ...process.env,
      NODE_TEST_CONTEXT: undefined,
      CI: undefined,
      SHELFMARK_TEST_DATABASE_URL: undefined,
      ...env,
    },
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

test('a passing selection exits 0 and closes with the counts', () => {
  const { code, output } = runTests(['test/support/json.test.ts'], {});
  assert.equal(code, 0, output);
  assert.match(output, /^Running 1 test file\(s\)/m);
  assert.match(output, /✔ validateJson checks formats/);
  assert.match(output, /^shelfmark: 5 passed, 0 failed, 0 skipped$/m);
});

test('skipped suites are listed with their reason', () => {
  const { code, output } = runTests(['support/pg.test'], {});
  assert.equal(code, 0, output);
  assert.match(
    output,
    /^Skipped:\n {2}PostgreSQL suites skipped: SHELFMARK_TEST_DATABASE_URL not set \(2 test\(s\) in 1 file\(s\)\)$/m,
  );
  assert.match(output, /^shelfmark: 1 passed, 0 failed, 2 skipped$/m);
});

test('in CI a missing requirement fails the run even when no selected test needs it', () => {
  const { code, output } = runTests(['test/support/json.test.ts'], { CI: 'true' });
  assert.equal(code, 1, output);
  assert.match(
    output,
    /CI=true, so this fails the run: PostgreSQL suites skipped: SHELFMARK_TEST_DATABASE_URL not set/,
  );
});

test('a filter that matches no test file fails instead of running nothing', () => {
  const { code, output } = runTests(['no-such-test-anywhere'], {});
  assert.equal(code, 1);
  assert.match(output, /No test file matches "no-such-test-anywhere"/);
});

test('options starting with -- go to node --test', () => {
  const { code, output } = runTests(['test/support/json.test.ts', '--test-name-pattern=formats'], {});
  assert.equal(code, 0, output);
  assert.match(output, /^shelfmark: 1 passed, 0 failed, 0 skipped$/m);
});

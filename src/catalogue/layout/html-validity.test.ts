// Every catalogue page, rendered with fake data, must be valid HTML5 for the Nu checker.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeSamplePages } from '../testing/sample-pages.ts';

const VNU = join(import.meta.dirname, '../../../node_modules/vnu-jar/build/dist/vnu.jar');

test('all sample pages pass the Nu HTML checker', async () => {
  const files = await writeSamplePages(mkdtempSync(join(tmpdir(), 'shelfmark-html-')));
  assert.ok(files.length >= 10);
  let report = '';
  try {
    execFileSync('java', ['-jar', VNU, '--errors-only', '--format', 'text', ...files], { stdio: 'pipe' });
  } catch (err) {
    report = String((err as { stderr?: Buffer }).stderr ?? err);
  }
  assert.equal(report, '');
});

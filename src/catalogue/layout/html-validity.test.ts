// Every catalogue page, rendered with fake data, must be valid HTML5 for the Nu checker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { htmlReport } from '../../../test/kit/html-report.ts';
import { samplePages } from '../../../test/kit/catalogue/sample-pages.ts';
import { skipUnless } from '../../../test/support/requirements.ts';

test('all sample pages pass the Nu HTML checker', skipUnless('java'), async () => {
  const pages = Object.entries(await samplePages()).map(([name, html]) => ({ name, html }));
  assert.ok(pages.length >= 10);
  assert.equal(await htmlReport(pages), '');
});

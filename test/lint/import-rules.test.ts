// The import rules of eslint.config.js as they apply to src/, run on probe files linted as
// text (nothing is written): production code never imports test code, while the unit tests
// beside the code may import the test kit; the layers rule still applies to both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { probeReports } from '../support/lint-probe.ts';

/** `rule: message` of the import rules' reports for `code` as if it were the file at `file`. */
function importReports(file: string, code: string): Promise<string[]> {
  return probeReports(file, code, ['no-restricted-imports', 'shelfmark/layers']);
}

const kit = "export { fakeApp } from '../../../test/kit/http/fake-app.ts';\n";
const TEST_CODE = /^no-restricted-imports: .* Production code never imports test code/;

test('production files in src/ may not import test/ or a *.test.ts', async () => {
  for (const [file, code] of [
    ['src/http/app/probe.ts', kit],
    ['src/catalogue/works/probe.ts', "import { x } from '../../../test/support/pg.ts';\nexport { x };\n"],
    ['src/catalogue/probe.ts', "export * from './routes.test.ts';\n"],
    ['src/main-probe.ts', "import '../test/kit/catalogue/fakes.ts';\n"],
  ] as const) {
    const reports = await importReports(file, code);
    assert.equal(reports.length, 1, `${file}: ${reports.join('; ')}`);
    assert.match(reports[0]!, TEST_CODE);
  }
});

test('unit tests beside the code may import the test kit', async () => {
  assert.deepEqual(await importReports('src/catalogue/works/probe.test.ts', kit), []);
  assert.deepEqual(await importReports('src/http/app/probe.test.ts', kit), []);
});

test('the layers rule still holds beside it, in production files and tests alike', async () => {
  const catalogue = "export { catalogueResources } from '../../catalogue/index.ts';\n";
  const production = await importReports('src/storage/x/probe.ts', kit + catalogue);
  assert.equal(production.length, 2, production.join('; '));
  assert.ok(production.some((r) => TEST_CODE.test(r)));
  assert.ok(
    production.some((r) => r.startsWith('shelfmark/layers: src/storage must not import src/catalogue')),
  );
  const unitTest = await importReports('src/storage/x/probe.test.ts', kit + catalogue);
  assert.deepEqual(unitTest.length, 1, unitTest.join('; '));
  assert.match(unitTest[0]!, /^shelfmark\/layers: src\/storage must not import src\/catalogue/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findTestFiles, selectTestFiles } from './test-files.ts';

function tree(files: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'shelfmark-tree-'));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
  }
  return root;
}

const layout = [
  'src/http/negotiation/negotiate.test.ts',
  'src/http/negotiation/negotiate.ts',
  'src/catalogue/persons/store.test.ts',
  'src/catalogue/node_modules/dep/x.test.ts',
  'src/.cache/y.test.ts',
  'test/browser/persons.test.ts',
  // A test folder that shares its name with a runtime folder (logs/, data/) is still searched.
  'test/logs/cluster.test.ts',
  'test/data/import.test.ts',
  'test/fixtures/person.xml',
  // Test code that is not a test (test/kit/): imported by tests, never run as one.
  'test/kit/catalogue/fakes.ts',
  'bench/http.test.ts',
];

test('findTestFiles finds *.test.ts recursively, sorted, without node_modules and dot-folders', (t) => {
  const root = tree(layout);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.deepEqual(
    findTestFiles(root, ['src', 'test', 'missing']).map((f) => path.relative(root, f)),
    [
      'src/catalogue/persons/store.test.ts',
      'src/http/negotiation/negotiate.test.ts',
      'test/browser/persons.test.ts',
      'test/data/import.test.ts',
      'test/logs/cluster.test.ts',
    ],
  );
});

test('selectTestFiles takes folders, files and path fragments, and reports filters that match nothing', (t) => {
  const root = tree(layout);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const all = findTestFiles(root, ['src', 'test']);
  const pick = (filters: string[], cwd = root) => {
    const { files, unmatched } = selectTestFiles(root, all, filters, cwd);
    return { files: files.map((f) => path.relative(root, f)), unmatched };
  };
  assert.deepEqual(pick([]).files.length, 5);
  assert.deepEqual(pick(['src/http']).files, ['src/http/negotiation/negotiate.test.ts']);
  assert.deepEqual(pick(['negotiation', 'browser']).files, [
    'src/http/negotiation/negotiate.test.ts',
    'test/browser/persons.test.ts',
  ]);
  assert.deepEqual(pick(['persons']).files, [
    'src/catalogue/persons/store.test.ts',
    'test/browser/persons.test.ts',
  ]);
  assert.deepEqual(pick(['store.test.ts'], path.join(root, 'src/catalogue/persons')).files, [
    'src/catalogue/persons/store.test.ts',
  ]);
  assert.deepEqual(pick(['src/http', 'nothing-like-this']), {
    files: ['src/http/negotiation/negotiate.test.ts'],
    unmatched: ['nothing-like-this'],
  });
});

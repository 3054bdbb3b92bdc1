// docs/lifecycle.md walks the one pipeline (ADR 0071): these tests keep it, the stage list and
// the hooks pipeline.ts registers from drifting apart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { STAGES } from '../../src/http/app/pipeline.ts';

const read = (path: string) => fs.readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const lifecycle = read('docs/lifecycle.md');

/** Consecutive repeats dropped: `a a b` → `a b`. */
const runs = (names: readonly string[]) => names.filter((name, i) => name !== names[i - 1]);

test('docs/lifecycle.md has a section for every stage, in the pipeline’s order', () => {
  const sections = [...lifecycle.matchAll(/^### (\d+)\. `([a-z-]+)`$/gm)].map((m) => [Number(m[1]), m[2]]);
  assert.deepEqual(
    sections,
    STAGES.map((stage, i) => [i + 1, stage.name]),
    'a "### N. `name`" heading per stage, numbered in order',
  );
});

test('the diagram numbers every stage as its section does', () => {
  for (const [i, stage] of STAGES.entries())
    assert.match(
      lifecycle,
      new RegExp(`\\b${i + 1} ${stage.name}\\b`),
      `${i + 1} ${stage.name} in the diagram`,
    );
});

test('pipeline.ts registers hooks in the order the stages name them, and no other', () => {
  const source = read('src/http/app/pipeline.ts');
  const body = source.slice(source.indexOf('export async function registerPipeline'));
  const registered = [
    ...body.matchAll(/app\.(?:addHook\('(\w+)'|register\((fastifyCookie)\)|(setErrorHandler))/g),
  ]
    .map((m) => (m[2] ? 'onRequest' : m[3] ? 'errorHandler' : m[1]!))
    .filter((hook) => hook !== 'preClose'); // closing the app, not a request's stage
  const named = STAGES.map((stage) => stage.hook).filter(
    (hook) => hook !== 'rewriteUrl' && hook !== 'handler',
  );
  assert.deepEqual(runs(registered), runs(named));
});

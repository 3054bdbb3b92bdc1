import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeError, errorLogMessage } from './describe.ts';
import { formatErrorLine } from './format.ts';

const here = fileURLToPath(import.meta.url);
const errorLine =
  fs
    .readFileSync(here, 'utf8')
    .split('\n')
    .findIndex((l) => l.endsWith('// <- here')) + 1;

test('names class, message, .ts file and line of the first frame in src/, with an excerpt', () => {
  const err = new TypeError('bad "thing"'); // <- here
  const d = describeError(err, { excerptRadius: 1 });
  assert.equal(d.className, 'TypeError');
  assert.equal(d.message, 'bad "thing"');
  assert.equal(d.file, here);
  assert.equal(d.line, errorLine);
  assert.equal(d.sourceExcerpt?.lines[1]?.includes('new TypeError'), true);
  assert.match(
    errorLogMessage(d),
    new RegExp(`^TypeError: bad "thing" in ${here} on line ${errorLine}\\nStack trace:\\n#0 `),
  );
});

test('one error-log line: literal \\n, escaped, cut at 8190', () => {
  const line = formatErrorLine({
    module: 'shelfmark',
    level: 'error',
    message: 'a\nb "q" é' + 'x'.repeat(9000),
    client: '1.2.3.4:5',
  });
  assert.match(
    line,
    /^\[\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2}\.\d{6} \d{4}\] \[shelfmark:error\] \[pid \d+:tid \d+\] \[client 1\.2\.3\.4:5\] a\\nb "q" \\xc3\\xa9x+$/,
  );
  assert.equal(line.length, 8190);
});

test('non-Error values are described too', () => {
  assert.equal(describeError('oops').className, 'string');
});

// Files Node could not load: the file and line come from the loader's error, not the stack
// (whose frames are all node:internal).
async function loadError(files: Record<string, string>, entry: string): Promise<unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-load-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  try {
    await import(pathToFileURL(path.join(dir, entry)).href);
  } catch (err) {
    return err;
  } finally {
    // Kept until the file's tests end: describing a missing module reads the importer.
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
  }
  throw new Error(`${entry} loaded`);
}

test('a TypeScript syntax error names the broken file and line, like a PHP parse error', async () => {
  const err = await loadError({ 'broken.ts': 'const a: number = 1;\nexport const b = a +;\n' }, 'broken.ts');
  const d = describeError(err);
  assert.equal(d.className, 'SyntaxError');
  assert.equal(d.message, 'Expression expected');
  assert.match(d.file ?? '', /shelfmark-load-[^/]+\/broken\.ts$/);
  assert.equal(d.line, 2);
  assert.match(errorLogMessage(d), /^SyntaxError: Expression expected in \/\S+\/broken\.ts on line 2\n/);
});

test('a syntax error in an imported file names that file, not the importer', async () => {
  const err = await loadError(
    {
      'entry.ts': "import { x } from './inner.ts';\nexport const y = x;\n",
      'inner.ts': '\n\nexport const x = (;\n',
    },
    'entry.ts',
  );
  const d = describeError(err);
  assert.match(d.file ?? '', /\/inner\.ts$/);
  assert.equal(d.line, 3);
});

test('a missing module names the importing file and the line of its import', async () => {
  const err = await loadError(
    {
      'entry.ts': "// first\nimport './there.ts';\nimport { z } from './gone.ts';\nexport const w = z;\n",
      'there.ts': '',
    },
    'entry.ts',
  );
  const d = describeError(err);
  assert.match(d.message, /Cannot find module '.*\/gone\.ts' imported from /);
  assert.match(d.file ?? '', /\/entry\.ts$/);
  assert.equal(d.line, 3);
});

test('a missing named export names the importing file and line', async () => {
  const err = await loadError(
    {
      'entry.ts': "\nimport { nope } from './lib.ts';\nexport const v = nope;\n",
      'lib.ts': 'export const yes = 1;\n',
    },
    'entry.ts',
  );
  const d = describeError(err);
  assert.equal(d.className, 'SyntaxError');
  assert.match(d.file ?? '', /\/entry\.ts$/);
  assert.equal(d.line, 2);
});

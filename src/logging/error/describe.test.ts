import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
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

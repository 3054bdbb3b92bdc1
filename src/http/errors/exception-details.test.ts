import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { describeError } from '../../logging/error/index.ts';
import { exceptionDetails } from './exception-details.ts';

const here = fileURLToPath(import.meta.url);

function thrower(): Error {
  return new RangeError('out of shelf'); // <- the throw
}

test('the displayErrors details name the same file and line as the error log', () => {
  const error = thrower();
  const details = exceptionDetails(error);
  const logged = describeError(error);
  assert.equal(details.class, 'RangeError');
  assert.equal(details.message, 'out of shelf');
  assert.equal(details.file, here);
  assert.equal(details.file, logged.file);
  assert.equal(details.line, logged.line);
  assert.match(details.stack, /^RangeError: out of shelf\n/);
  assert.match(details.source, new RegExp(`^> +${details.line} \\| .*// <- the throw$`, 'm'));
  assert.equal(details.source.split('\n').length, 7);
});

test('a thrown non-Error is described without a location', () => {
  assert.deepEqual(exceptionDetails('oops'), {
    class: 'string',
    message: 'oops',
    file: '',
    line: 0,
    stack: '',
    source: '',
  });
});

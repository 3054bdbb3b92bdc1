import assert from 'node:assert/strict';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { test } from 'node:test';
import { headerWritable } from './finish-response.ts';

/** What Node's writeHead decides: the validators throw on what it would refuse. */
function nodeWrites(name: string, value: unknown): boolean {
  try {
    validateHeaderName(name);
    for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(one));
    return true;
  } catch {
    return false;
  }
}

test('headerWritable answers as Node does for every character in a name and in a value', () => {
  for (let code = 0; code <= 0x17f; code += 1) {
    const c = String.fromCharCode(code);
    for (const name of [c, `X-${c}`, `${c}Name`]) {
      assert.equal(headerWritable(name, 'v'), nodeWrites(name, 'v'), `name ${JSON.stringify(name)}`);
    }
    for (const value of [c, `a${c}b`, [`ok`, `x${c}`], [`x${c}`, 'ok']]) {
      assert.equal(
        headerWritable('X-Test', value),
        nodeWrites('X-Test', value),
        `value ${JSON.stringify(value)}`,
      );
    }
  }
  for (const [name, value] of [
    ['', 'v'],
    ['Content-Length', 123],
    ['X-Empty', ''],
    ['X-List', []],
    ['Link', '<https://example.org/personen/g%C3%B6the>; rel="canonical"'],
    ['Location', 'https://example.org/personen/göthe'],
    ['Location', 'https://example.org/personen/\u{1F600}'],
    ['X-Tab', 'a\tb'],
    ['X-Newline', 'a\r\nSet-Cookie: x=1'],
  ] as const) {
    assert.equal(headerWritable(name, value), nodeWrites(name, value), `${name}: ${JSON.stringify(value)}`);
  }
});

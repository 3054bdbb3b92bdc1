import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyMergePatch } from './merge-patch.ts';
import type { FieldValue } from './fields.ts';

const plain = (value: FieldValue): unknown => JSON.parse(JSON.stringify(value));

// RFC 7396 Appendix A, every example.
const EXAMPLES: [target: string, patch: string, result: string][] = [
  ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
  ['{"a":"b"}', '{"a":null}', '{}'],
  ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
  ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
  ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
  ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
  ['["a","b"]', '["c","d"]', '["c","d"]'],
  ['{"a":"b"}', '["c"]', '["c"]'],
  ['{"a":"foo"}', 'null', 'null'],
  ['{"a":"foo"}', '"bar"', '"bar"'],
  ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
  ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
  ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
];

test('RFC 7396 appendix A: every example', () => {
  for (const [target, patch, result] of EXAMPLES) {
    assert.deepEqual(
      plain(applyMergePatch(JSON.parse(target) as FieldValue, JSON.parse(patch) as FieldValue)),
      JSON.parse(result),
      `${target} + ${patch}`,
    );
  }
});

test('the target is not changed; __proto__ is only a member name', () => {
  const target = { a: { b: 1 } };
  const patched = applyMergePatch(target, JSON.parse('{"a":{"c":2},"__proto__":{"x":1}}') as FieldValue);
  assert.deepEqual(target, { a: { b: 1 } });
  assert.equal(({} as Record<string, unknown>).x, undefined);
  assert.deepEqual(Object.keys(patched as object), ['a', '__proto__']);
});

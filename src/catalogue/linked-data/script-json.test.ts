import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scriptJson } from './script-json.ts';

test('JSON for a script element: markup characters and line separators as JSON escapes, the rest as it is', () => {
  assert.equal(scriptJson({ name: 'Faust', n: 1 }).text, '{"name":"Faust","n":1}');
  assert.equal(
    scriptJson({ name: '</script><!-- & \u2028\u2029' }).text,
    '{"name":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029"}',
  );
  // The same value again: the escaping does not depend on an earlier call.
  assert.equal(scriptJson(['<', 'a']).text, '["\\u003c","a"]');
  assert.equal(scriptJson(['a', '>']).text, '["a","\\u003e"]');
});

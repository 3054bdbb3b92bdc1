import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless } from './requirements.ts';
import { validateHtml } from './html.ts';

const valid = '<!doctype html><html lang="de"><title>Faust</title><p>Ein Werk.</p></html>';

test(
  'validateHtml checks many pages in one go and maps messages to page names',
  skipUnless('java'),
  async () => {
    const results = await validateHtml([
      { name: '/werke/faust', html: valid },
      {
        name: 'broken page',
        html: '<!doctype html><html lang="de"><title>x</title><p><div>bad</p><foo></foo>',
      },
      { name: 'no title', html: '<!doctype html><html lang="de"><p>untitled</p></html>' },
    ]);
    assert.deepEqual(
      results.map((r) => r.name),
      ['/werke/faust', 'broken page', 'no title'],
    );
    assert.deepEqual(results[0]!.messages, []);
    const broken = results[1]!.messages.map((m) => m.message).join('\n');
    assert.match(broken, /No “p” element in scope/);
    assert.match(broken, /“foo”/);
    assert.ok(results[1]!.messages.every((m) => m.type === 'error' && typeof m.lastLine === 'number'));
    assert.match(results[2]!.messages.map((m) => m.message).join('\n'), /“title”/);
  },
);

test('validateHtml reports errors only, not warnings', skipUnless('java'), async () => {
  // A missing lang attribute is only a warning for the Nu checker.
  const [result] = await validateHtml([
    { name: 'warning only', html: '<!doctype html><title>x</title><p>ok' },
  ]);
  assert.deepEqual(result, { name: 'warning only', messages: [] });
});

test('validateHtml of no pages starts no checker', async () => {
  assert.deepEqual(await validateHtml([]), []);
});

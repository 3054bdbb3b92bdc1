import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFields, type FieldSpec } from './validate.ts';

const spec = {
  titel: { type: 'string', required: true, minLength: 2, maxLength: 10 },
  jahr: { type: 'int', min: 1000, max: 2100 },
  exemplare: { type: 'int', required: true, min: 0 },
  autor: { type: 'url-or-slug', many: true },
} as const satisfies FieldSpec;

function problems(body: unknown): { field: string; code: string }[] {
  const checked = checkFields(body, spec);
  assert.ok(!checked.ok, 'expected problems');
  return [...checked.problems];
}

function valid(body: unknown): unknown {
  const checked = checkFields(body, spec);
  assert.ok(checked.ok, 'expected no problems');
  return checked.value;
}

test('valid input is normalised', () => {
  const v = valid({
    titel: ' Faust ',
    jahr: '1808',
    exemplare: 3,
    autor: ['goethe', 'https://x.example/personen/a'],
  });
  assert.deepEqual(v, {
    titel: 'Faust',
    jahr: 1808,
    exemplare: 3,
    autor: ['goethe', 'https://x.example/personen/a'],
  });
  const minimal = valid({ titel: 'ab', exemplare: '0', jahr: '' });
  assert.deepEqual(minimal, { titel: 'ab', exemplare: 0, autor: [] });
});

test('every problem is reported with a code per field', async (t) => {
  const cases: [string, unknown, [string, string][]][] = [
    [
      'missing body',
      undefined,
      [
        ['titel', 'required'],
        ['exemplare', 'required'],
      ],
    ],
    ['blank required', { titel: '   ', exemplare: '1' }, [['titel', 'required']]],
    ['too short / too long', { titel: 'a', exemplare: 1 }, [['titel', 'too_short']]],
    ['too long counts characters', { titel: 'äöüäöüäöüäö', exemplare: 1 }, [['titel', 'too_long']]],
    [
      'not an integer',
      { titel: 'ok', exemplare: '1.5', jahr: 'abc' },
      [
        ['jahr', 'type'],
        ['exemplare', 'type'],
      ],
    ],
    [
      'range',
      { titel: 'ok', exemplare: -1, jahr: 999 },
      [
        ['jahr', 'too_small'],
        ['exemplare', 'too_small'],
      ],
    ],
    ['repeated single field', { titel: ['a', 'b'], exemplare: 1 }, [['titel', 'single']]],
    [
      'wrong JSON type',
      { titel: 42, exemplare: true },
      [
        ['titel', 'type'],
        ['exemplare', 'type'],
      ],
    ],
    ['nested object for text', { titel: { x: 'y' }, exemplare: 1 }, [['titel', 'type']]],
    ['bad slug / URL', { titel: 'ok', exemplare: 1, autor: ['Goethe!', 'ftp://x/y'] }, [['autor', 'format']]],
    ['javascript: URL', { titel: 'ok', exemplare: 1, autor: 'javascript:alert(1)' }, [['autor', 'format']]],
  ];
  for (const [name, body, expected] of cases) {
    await t.test(name, () =>
      assert.deepEqual(
        problems(body).map((p) => [p.field, p.code]),
        expected,
      ),
    );
  }
});

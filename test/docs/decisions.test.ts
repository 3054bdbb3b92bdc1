// docs/decisions/README.md indexes every ADR with the status its own Status line gives (or
// Accepted when it has none) — superseded ones included — and the date it was recorded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

const dir = new URL('../../docs/decisions/', import.meta.url);
const files = fs.readdirSync(dir).filter((name) => /^\d{4}-.*\.md$/.test(name));
const index = fs.readFileSync(new URL('README.md', dir), 'utf8');

/** The ADR's own status, as the index states it: the Status line up to a colon or parenthesis. */
function statusOf(text: string): string {
  const line = /^\*\*Status\.\*\*\s*(.+)$/m.exec(text)?.[1];
  if (line === undefined) return 'Accepted';
  return line
    .replace(/\s*[(:].*$/, '')
    .replace(/\.$/, '')
    .trim();
}

test('the index has one row per ADR, with its status and a date', () => {
  const rows = new Map(
    [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\) \| [^|]+ \| ([^|]+) \| (\d{4}-\d{2}-\d{2}) \|$/gm)].map(
      (m) => [m[2]!, m[3]!.trim()],
    ),
  );
  assert.deepEqual([...rows.keys()].sort(), files.sort(), 'every ADR file, and no other');
  for (const file of files) {
    const text = fs.readFileSync(new URL(file, dir), 'utf8');
    assert.equal(rows.get(file), statusOf(text), `${file}: the index repeats its status`);
  }
});

test('a superseding ADR exists, and names the ADR it replaces', () => {
  for (const file of files) {
    const text = fs.readFileSync(new URL(file, dir), 'utf8');
    for (const [, by] of statusOf(text).matchAll(/[Ss]uperseded (?:in part )?by (\d{4})/g)) {
      const successor = files.find((name) => name.startsWith(`${by}-`));
      assert.ok(successor, `${file} is superseded by ${by}, which exists`);
      const successorText = fs.readFileSync(new URL(successor, dir), 'utf8');
      assert.ok(successorText.includes(file.slice(0, 4)), `${successor} names ${file.slice(0, 4)}`);
    }
  }
});

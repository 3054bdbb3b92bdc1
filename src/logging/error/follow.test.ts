import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { followFile } from './follow.ts';

/** Collects lines; `next(n)` resolves once n lines have arrived in total. */
function collector() {
  const lines: string[] = [];
  let waiting: { n: number; resolve: () => void } | null = null;
  return {
    lines,
    onLine(line: string) {
      lines.push(line);
      if (waiting && lines.length >= waiting.n) waiting.resolve();
    },
    next(n: number): Promise<void> {
      if (lines.length >= n) return Promise.resolve();
      return new Promise((resolve) => (waiting = { n, resolve }));
    },
  };
}

test('reports whole lines appended after the start, through truncation and rotation', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-follow-'));
  const file = path.join(dir, 'error.log');
  writeFileSync(file, 'old line\n');
  const c = collector();
  const follower = followFile(file, c.onLine, { pollMs: 50 });
  try {
    await follower.ready;
    appendFileSync(file, 'one\ntw');
    await c.next(1);
    appendFileSync(file, 'o\n');
    await c.next(2);
    assert.deepEqual(c.lines, ['one', 'two']);

    // Truncated and rewritten before the follower looks: noticed because the file is now
    // shorter than what was read (a same-size rewrite is invisible, as to `tail -F`).
    truncateSync(file, 0);
    appendFileSync(file, 'cut\n');
    await c.next(3);

    appendFileSync(file, 'last of the old file\n');
    renameSync(file, file + '.1');
    writeFileSync(file, 'first of the new file\n');
    await c.next(5);
    assert.deepEqual(c.lines, ['one', 'two', 'cut', 'last of the old file', 'first of the new file']);
  } finally {
    follower.close();
  }
});

test('a file created after the start is read from its beginning', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-follow-'));
  const file = path.join(dir, 'later.log');
  const c = collector();
  const follower = followFile(file, c.onLine, { pollMs: 50 });
  try {
    await follower.ready;
    writeFileSync(file, 'hello\n');
    await c.next(1);
    assert.deepEqual(c.lines, ['hello']);
  } finally {
    follower.close();
  }
});

// The import streams: its memory does not grow with the file. One child process imports a
// synthetic file of 60,000 lines; the heap in use (after a full collection) and the anonymous
// resident memory are taken after 20,000 lines and at the end. Keeping anything per line (a map
// of slugs, the records) would cost megabytes for the 40,000 lines between; the heap may grow
// by under 2 MiB. The anonymous RSS is only bounded loosely (under 192 MiB of growth): it holds
// SQLite's page cache filling up (SQLITE_CACHE_KIB) and the space V8 keeps for its heap, and
// varied from 67 to 119 MiB between runs. File pages SQLite maps (mmap_size) are left out: they
// are the database file's, shared and reclaimable. docs/decisions/0064-import-and-export.md has the
// figures for 1,000,000 works.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const CHILD = new URL('../../../test/kit/catalogue/import-memory-child.ts', import.meta.url).pathname;
const MIB = 1024 * 1024;

interface Sample {
  readonly heap: number;
  readonly rss: number;
  readonly anon: number;
}

test('40,000 more lines: the heap grows by under 2 MiB', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-import-memory-'));
  try {
    // 48,000 works and their 12,000 persons: 60,000 lines.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', CHILD, dir, '48000', '20000'],
      {
        maxBuffer: MIB,
      },
    );
    const result = JSON.parse(stdout) as { samples: Sample[]; bad: number; works: number };
    assert.equal(result.bad, 0);
    assert.equal(result.works, 48_000);
    const [early, late] = result.samples;
    assert.ok(early && late, stdout);
    const heap = (late.heap - early.heap) / MIB;
    const anon = (late.anon - early.anon) / MIB;
    assert.ok(heap < 2, `heap grew by ${heap.toFixed(1)} MiB`);
    assert.ok(anon < 192, `anonymous RSS grew by ${anon.toFixed(1)} MiB`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

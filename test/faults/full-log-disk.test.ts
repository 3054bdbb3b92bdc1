// The access log on a full filesystem, two workers writing: a short write used to leave the
// start of a line in the file and write its rest later as a separate write, so the other
// worker's line landed inside it (`...+0127.0.0.1 - - [...`). A line is whole or not there.
// A 64 KiB tmpfs is filled with 4 KiB files, then freed one page at a time under load.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  loggedNumbers,
  mountTmpfs,
  readLines,
  serve,
  sleep,
  startLoad,
  tempDir,
  tmpfsSkip,
  until,
} from './support.ts';

const PAGE = 4096;
const CYCLES = 10;

/** Fills `dir` with PAGE-sized files named `prefix-N` until the filesystem refuses; returns them. */
function fill(dir: string, prefix: string): string[] {
  const files: string[] = [];
  for (let i = 0; i < 64; i++) {
    const file = path.join(dir, `${prefix}-${i}`);
    try {
      fs.writeFileSync(file, Buffer.alloc(PAGE, 0x2e));
      files.push(file);
    } catch {
      fs.rmSync(file, { force: true });
      break;
    }
  }
  return files;
}

test(
  'two workers, a full log filesystem freed page by page: no line split or interleaved',
  tmpfsSkip(),
  async (t) => {
    const dir = tempDir('shelfmark-full-disk-');
    const logs = path.join(dir, 'logs');
    const unmount = mountTmpfs(logs, '64k');
    const s = await serve(
      { workers: 2, env: { SHELFMARK_ERROR_LOG: path.join(dir, 'error.log') } },
      dir,
    ).catch((err: unknown) => {
      unmount();
      throw err;
    });
    t.after(async () => {
      await s.stop();
      unmount();
    });
    // Most of the disk is filled before the load starts, two pages left: a fast machine logs
    // 64 KiB of lines before the first poll below sees 20 answers, and there must still be
    // pages to fill (and free one by one) when it does.
    const fillers = fill(logs, 'before');
    for (const f of fillers.splice(-2)) fs.rmSync(f);
    // Long lines (~330 bytes): a page ends inside one almost always.
    const pad = 'x'.repeat(160);
    // The default cap of 20,000 requests can run out before the ten cycles end on a quiet
    // machine (the load then stops and "still answering" fails): this test needs a longer run.
    const load = startLoad(s.port, {
      clients: 8,
      maxRequests: 500_000,
      path: (n) => `/personen/goethe.json?n=${n}&pad=${pad}`,
    });
    try {
      assert.ok(await until(() => load.answered() >= 20, 60_000), 'answers before the disk is full');
      fillers.push(...fill(logs, 'after'));
      assert.ok(fillers.length > CYCLES, `${fillers.length} pages filled`);
      for (let i = 0; i < CYCLES; i++) {
        const before = load.answered();
        assert.ok(
          await until(() => load.answered() >= before + 20, 60_000),
          'still answering on a full disk',
        );
        fs.rmSync(fillers.pop()!); // one page free: whoever retries first fills it
        await sleep(1300); // the sinks retry every second
      }
      for (const f of fillers) fs.rmSync(f);
      const before = load.answered();
      assert.ok(await until(() => load.answered() >= before + 20, 60_000));
    } finally {
      await load.stop();
    }
    await s.stop();
    assert.match(s.output(), /log file \S*access\.log: (disk full|ENOSPC)/, 'the disk was full');
    const { counts, malformed } = loggedNumbers(readLines(s.accessLog));
    assert.deepEqual(malformed, [], 'every line whole, none inside another');
    assert.deepEqual(
      [...counts].filter(([, c]) => c > 1).map(([n]) => n),
      [],
      'no line twice',
    );
    t.diagnostic(`${load.answered()} answered, ${counts.size} lines (64 KiB hold no more)`);
  },
);

// A SQLite file that a real server (`shelfmark serve`, --workers 0 and 2) can only open
// read-only, whose permissions are then fixed: writes answer 503 SHELFMARK_DATABASE_UNAVAILABLE
// (Retry-After, problem body in the negotiated format) while it is read-only, reads keep
// working, and the first write after the fix succeeds in every worker without a restart.
//
// Tests run as root, which ignores permission bits, so the file is made read-only with the
// immutable attribute (`chattr +i`): open(2) for writing then fails with EPERM even for root,
// and SQLite falls back to a read-only connection exactly as for a file without write
// permission. `chattr -i` is the fix. Skipped where chattr cannot do that (not root, tmpfs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  alive,
  ask,
  childDeaths,
  errorLogSummary,
  FORMATS,
  newPerson,
  nonCombined,
  problemOf503,
  readLines,
  serveShelfmark,
  tempDir,
} from './database-support.ts';

const chattr = (flag: '+i' | '-i', file: string) => spawnSync('chattr', [flag, file], { encoding: 'utf8' });

/** Why the immutable attribute cannot be used here, or undefined. */
function immutableMissing(): string | undefined {
  const dir = tempDir('sm-chattr-');
  const file = path.join(dir, 'probe');
  fs.writeFileSync(file, '');
  try {
    const set = chattr('+i', file);
    if (set.status !== 0) return `chattr +i not possible here: ${set.stderr || set.error}`;
    chattr('-i', file);
    return undefined;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const missing = immutableMissing();

for (const workers of [0, 2]) {
  test(
    `--workers ${workers}: a read-only SQLite file whose permissions are fixed`,
    { skip: missing ?? false },
    async (t) => {
      const dir = tempDir('sm-sqlite-ro-');
      const db = path.join(dir, 'data', 'shelfmark.db');
      // A first server creates the database and the demo catalogue, and stops.
      await (await serveShelfmark({ workers: 0, databaseUrl: db, dir })).stop();
      assert.equal(chattr('+i', db).status, 0);
      t.after(() => chattr('-i', db));
      const s = await serveShelfmark({ workers, databaseUrl: db, dir });
      t.after(() => s.stop());
      const served = s.servers();
      const write = (accept = 'application/json') =>
        ask(s.port, { method: 'POST', path: '/personen', accept, staff: true, json: newPerson('R') });

      // Read-only: every write (in each worker) is a 503 in the negotiated format; reads work.
      const refused = [];
      for (let i = 0; i < 2 * Math.max(1, workers); i++) {
        for (const { accept } of FORMATS) refused.push({ accept, answer: await write(accept) });
      }
      for (const { accept, answer } of refused) {
        assert.equal(problemOf503(answer, accept, 'SHELFMARK_DATABASE_UNAVAILABLE'), undefined, accept);
      }
      assert.equal((await ask(s.port, { path: '/personen/goethe', accept: 'application/json' })).status, 200);

      // Fixed: the very first write, and every one after it, in whichever worker, is stored.
      assert.equal(chattr('-i', db).status, 0);
      const stored = [];
      for (let i = 0; i < 4 * Math.max(1, workers); i++) stored.push(await write());
      assert.deepEqual(
        stored.map((a) => a.status),
        stored.map(() => 201),
        stored.map((a) => a.body.slice(0, 120)).join('\n'),
      );
      for (const answer of stored) {
        const location = new URL(String(answer.headers.location)).pathname;
        // As staff: a new person has no works yet, so only staff may see it (ADR 0062).
        assert.equal((await ask(s.port, { path: location, staff: true })).status, 200, location);
      }

      const mainAlive = alive(s.pid);
      const deadServers = served.filter((pid) => !alive(pid));
      await s.stop();
      assert.ok(mainAlive);
      assert.deepEqual(deadServers, []);
      const errors = readLines(s.errorLog);
      assert.deepEqual(childDeaths(errors), []);
      assert.deepEqual(nonCombined(readLines(s.accessLog)), []);
      const log = errorLogSummary(errors);
      t.diagnostic(`${refused.length} writes refused; error log: ${log.entries.length} entries`);
      assert.ok(log.firsts <= 2 * Math.max(1, workers), log.entries.join('\n'));
      assert.ok(log.firsts + log.repeated >= refused.length);
    },
  );
}

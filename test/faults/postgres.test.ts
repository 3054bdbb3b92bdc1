// PostgreSQL going away under a real server (`shelfmark serve`, --workers 0 and 2) on a private
// cluster this file starts (never the shared one): stopped and started under load, and every
// backend of the server terminated (pg_terminate_backend) while it is idle and under load.
// No process may die, every request gets an answer (503 + Retry-After + a problem body in the
// negotiated format while the database is away), acknowledged writes stay, the error log holds
// first occurrences plus "repeated N times" summaries, and the server recovers by itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  alive,
  ask,
  childDeaths,
  errorLogSummary,
  loadProblems,
  mixedLoad,
  newPerson,
  nonCombined,
  privatePostgres,
  privatePostgresMissing,
  readLines,
  serveShelfmark,
  sleep,
  tempDir,
  until,
  type PrivatePostgres,
  type Served,
} from './database-support.ts';

const UNAVAILABLE = 'SHELFMARK_DATABASE_UNAVAILABLE';
const DATABASE = 'shelfmark_faults';

/** A read and a write both succeed: the server works (again). */
async function healthy(s: Served): Promise<boolean> {
  const read = await ask(s.port, { path: '/personen/goethe', accept: 'application/json', timeoutMs: 10_000 });
  if (read.status !== 200) return false;
  const write = await ask(s.port, {
    method: 'POST',
    path: '/personen',
    accept: 'application/json',
    staff: true,
    json: newPerson('H'),
    timeoutMs: 10_000,
  });
  return write.status === 201;
}

/** Ends the server and checks what every fault test checks; returns the error-log summary. */
async function finish(s: Served, served: number[]): Promise<ReturnType<typeof errorLogSummary>> {
  const deadServers = served.filter((pid) => !alive(pid));
  const mainAlive = alive(s.pid);
  await s.stop();
  const errors = readLines(s.errorLog);
  assert.ok(mainAlive, `the server process ${s.pid} died:\n${errors.slice(-5).join('\n')}`);
  assert.deepEqual(deadServers, [], 'no serving process died');
  assert.deepEqual(childDeaths(errors), [], 'no worker died');
  assert.equal(s.servers().length, served.length, 'no worker was replaced');
  assert.deepEqual(nonCombined(readLines(s.accessLog)), [], 'every access-log line is Apache combined');
  return errorLogSummary(errors);
}

describe('PostgreSQL faults under a real server', { skip: privatePostgresMissing() ?? false }, () => {
  let pg: PrivatePostgres;
  before(async () => {
    pg = await privatePostgres();
    await pg.psql(`create database ${DATABASE}`);
  });
  after(() => pg?.remove());

  // With the cache off every read renders; a failed read is one 503 and one error-log report.
  const stopVariants = [
    { workers: 0, cacheMib: undefined, label: '' },
    { workers: 2, cacheMib: undefined, label: '' },
    { workers: 0, cacheMib: 0, label: ', cache off' },
  ];
  for (const { workers, cacheMib, label } of stopVariants)
    test(`--workers ${workers}${label}: PostgreSQL stopped and started under load`, async (t) => {
      const s = await serveShelfmark({
        workers,
        databaseUrl: pg.url(DATABASE),
        dir: tempDir('sm-pg-stop-'),
        ...(cacheMib !== undefined && { cacheMib }),
      });
      t.after(() => s.stop());
      const served = s.servers();
      assert.ok(await healthy(s));
      const load = mixedLoad(s.port, { clients: 4 });
      let unavailableDuringOutage: number;
      try {
        assert.ok(await until(() => load.outcomes.length >= 40, 30_000), 'load before the outage');
        await pg.stop();
        const since = load.outcomes.length;
        // The outage lasts until a good number of requests were answered without the database.
        await until(() => load.outcomes.length >= since + 80, 20_000);
        unavailableDuringOutage = load.outcomes.slice(since).filter((o) => o.answer.status === 503).length;
        await pg.start();
        const back = load.outcomes.length;
        assert.ok(
          await until(
            () => load.outcomes.slice(back).some((o) => o.kind === 'write' && o.answer.status === 201),
            30_000,
          ),
          'writes succeed again after PostgreSQL is back',
        );
      } finally {
        await load.stop();
      }
      assert.ok(unavailableDuringOutage >= 20, `503s during the outage: ${unavailableDuringOutage}`);
      assert.deepEqual(await loadProblems(s.port, load, UNAVAILABLE), []);
      assert.ok(await healthy(s), 'recovered without a restart');
      const total503 = load.count((o) => o.answer.status === 503);
      const log = await finish(s, served);
      t.diagnostic(
        `${load.outcomes.length} requests, ${total503} answered 503; error log: ${log.entries.length} entries, ` +
          `${log.firsts} first occurrences, ${log.repeated} summarised`,
      );
      // Bounded: a few kinds of failure per process, not one entry per request.
      assert.ok(log.firsts <= 8 * Math.max(1, workers), log.entries.join('\n'));
      assert.ok(log.entries.length < total503 / 2, `${log.entries.length} entries for ${total503} 503s`);
      // Every 503 was reported: as a first occurrence or inside a summary.
      assert.ok(log.firsts + log.repeated >= total503, `${log.firsts} + ${log.repeated} < ${total503}`);
      // And once: beside one report per 503 only connection-level entries (a pool of 10 per
      // process, each idle connection failing once, and a few more while it reconnects).
      const bound = total503 + 15 * Math.max(1, workers);
      assert.ok(log.firsts + log.repeated <= bound, `${log.firsts} + ${log.repeated} > ${bound}`);
    });

  for (const workers of [0, 2]) {
    test(`--workers ${workers}: every backend terminated while idle and under load`, async (t) => {
      const s = await serveShelfmark({ workers, databaseUrl: pg.url(DATABASE), dir: tempDir('sm-pg-term-') });
      t.after(() => s.stop());
      const served = s.servers();
      // Fill the pools with connections, then let them sit idle.
      await Promise.all(Array.from({ length: 8 }, () => healthy(s)));
      const terminate = () =>
        pg.psql(
          `select count(pg_terminate_backend(pid)) from pg_stat_activity ` +
            `where datname = '${DATABASE}' and pid <> pg_backend_pid()`,
        );
      const idle = Number(await terminate());
      assert.ok(idle >= 1, `idle backends terminated: ${idle}`);
      await sleep(500);
      assert.ok(served.every(alive) && alive(s.pid), 'alive after its idle connections were terminated');
      assert.ok(await until(() => healthy(s), 20_000), 'works after its idle connections were terminated');
      const load = mixedLoad(s.port, { clients: 4 });
      let terminated = idle;
      try {
        for (let i = 0; i < 6; i++) {
          await until(() => load.outcomes.length >= (i + 1) * 25, 20_000);
          terminated += Number(await terminate());
        }
        await sleep(300);
      } finally {
        await load.stop();
      }
      assert.deepEqual(await loadProblems(s.port, load, UNAVAILABLE), []);
      assert.ok(await until(() => healthy(s), 20_000), 'recovered without a restart');
      const log = await finish(s, served);
      t.diagnostic(
        `${terminated} backends terminated; ${load.outcomes.length} requests, ` +
          `${load.count((o) => o.answer.status === 503)} answered 503; error log: ${log.entries.length} entries`,
      );
      assert.ok(log.firsts <= 8 * Math.max(1, workers), log.entries.join('\n'));
    });
  }
});

// ADR 0070 on the real catalogue: two servers over one database, one with the lean path and one
// without, must give every request the same status, the same headers in the same order and
// the same bytes — persons, works, lists, searches, copies, life dates and the home page, in
// each format, language and coding, with and without the representation cache; and what the
// lean path hands on (404, 410, a private person, 406, Basic) is answered and logged once.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { prepareDatabase, startServer, type RunningServer } from '../../src/main.ts';
import { freePort } from '../support/process.ts';
import { STAFF_AUTHORIZATION } from '../acceptance/catalogue-server.ts';
import { askWire } from '../kit/http/wire.ts';
import { freshSchema, skipUnlessPg, type FreshSchema } from '../support/pg.ts';

const TARGETS = [
  '/',
  '/personen/goethe',
  '/personen/goethe.json',
  '/personen/goethe.xml',
  '/personen/goethe/lebensdaten.json',
  '/person?slug=goethe',
  '/personen',
  '/personen.json?anzahl=5',
  '/werke.xml?q=faust',
  '/werke.json?q=die+kleine',
  '/werke/faust',
  '/werke/faust/exemplare.json',
];

const VARIANTS: readonly Record<string, string>[] = [
  {},
  { accept: 'application/json' },
  { accept: 'application/xml;q=0.9, text/html;q=0.8' },
  { 'accept-language': 'en' },
  { 'accept-encoding': 'gzip, deflate, br' },
  { origin: 'https://app.example' },
];

/** Handed on by the lean path: answered by the full path, the same way on both servers. */
const HANDED_ON: readonly [string, Record<string, string>][] = [
  ['/personen/niemand.json', {}],
  ['/personen/niemand', { 'accept-language': 'en' }],
  ['/personen/anna-berger.json', {}], // a patron: private, 404 to anyone else (ADR 0062)
  ['/werke/faust', { accept: 'image/png' }],
  ['/personen/anna-berger.json', { authorization: STAFF_AUTHORIZATION }],
  // Cacheable, but a member's own: refused to nobody by the handler, answered by the full path.
  ['/ausleihen/1.json', {}],
  ['/personen/anna-berger/vormerkungen', {}],
];

const ENGINES = [
  { name: 'SQLite', skip: false as const },
  // PostgreSQL reads the change counter asynchronously: the front hands its version on.
  { name: 'PostgreSQL', skip: skipUnlessPg.skip },
];

for (const engine of ENGINES)
  for (const cacheMib of ['0', '128']) {
    describe(
      `the lean path on the catalogue (${engine.name}, cache ${cacheMib} MiB)`,
      { skip: engine.skip },
      () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-lean-'));
        let schema: FreshSchema | undefined;
        let lean: RunningServer;
        let full: RunningServer;
        let stopped = false;
        const stop = async () => {
          if (stopped) return;
          stopped = true;
          await lean?.stop(1000);
          await full?.stop(1000);
        };
        const logDir = (name: string) => path.join(dir, name);
        before(async () => {
          if (engine.name === 'PostgreSQL') schema = await freshSchema();
          const configFor = async (name: string) => {
            const loaded = loadConfig({
              PORT: String(await freePort()),
              HOST: '127.0.0.1',
              SHELFMARK_BASE_URL: 'https://library.example/katalog',
              SHELFMARK_DATA_DIR: path.join(dir, 'data'),
              SHELFMARK_LOG_DIR: logDir(name),
              SHELFMARK_CACHE_MIB: cacheMib,
              SHELFMARK_CORS_ORIGINS: 'https://app.example',
              SHELFMARK_LOG_LEVEL: 'info', // the 404s' AH00128 entries
              ...(schema && { DATABASE_URL: schema.url }),
            });
            if (!loaded.ok) throw new Error(loaded.errors.join('; '));
            return loaded.config;
          };
          const leanConfig = await configFor('lean');
          await prepareDatabase(leanConfig);
          lean = await startServer(leanConfig);
          full = await startServer(await configFor('full'), { leanPath: false });
          // Last-Modified is sent once its second is over (ADR 0024): with the demo written in the
          // second the comparisons start in, the two answers of a pair could straddle its end.
          await new Promise((resolve) => setTimeout(resolve, 1100));
        });
        after(async () => {
          await stop();
          await schema?.drop();
          rmSync(dir, { recursive: true, force: true });
        });
        const both = async (target: string, headers: Record<string, string>, method = 'GET') => {
          const expected = await askWire(full.address.port, `/katalog${target}`, headers, method);
          const got = await askWire(lean.address.port, `/katalog${target}`, headers, method);
          return { expected, got };
        };

        test('every resource, format, language, coding and origin: the same answer, twice', async () => {
          for (const target of TARGETS)
            for (const headers of VARIANTS)
              for (const method of ['GET', 'HEAD', 'GET']) {
                const { expected, got } = await both(target, headers, method);
                const label = `${method} ${target} ${JSON.stringify(headers)}`;
                assert.equal(expected.status, 200, label);
                assert.deepEqual(got, expected, label);
              }
        });

        test('what the lean path hands on: the same answer, the 404 logged once', async () => {
          for (const [target, headers] of HANDED_ON) {
            const { expected, got } = await both(target, headers);
            assert.deepEqual(got, expected, `${target} ${JSON.stringify(headers)}`);
          }
          const statuses = await Promise.all(
            HANDED_ON.map(async ([target, headers]) => (await both(target, headers)).got.status),
          );
          assert.deepEqual(statuses.slice(0, 5), [404, 404, 404, 406, 200]);
          assert.ok(
            statuses.slice(5).every((status) => status >= 400),
            `a member's own resources refuse nobody: ${statuses.join(' ')}`,
          );
          await stop(); // the logs are complete once both have stopped
          const notFound = (name: string) =>
            readFileSync(path.join(logDir(name), 'error.log'), 'utf8')
              .split('\n')
              .filter((line) => line.includes('File does not exist') && line.includes('niemand.json')).length;
          assert.equal(notFound('lean'), 2, 'one entry per request, as on the full path');
          assert.equal(notFound('full'), 2);
        });
      },
    );
  }

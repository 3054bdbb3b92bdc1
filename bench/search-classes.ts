// Search and list latency per query class on an existing catalogue (e.g. one built with
// `shelfmark demo --works 1000000`): sequential calls of the works store, as a request makes
// them, at page 1, page 2 and page 1,000 (forwards) and page 1,000 backwards. Prints p50/p95
// wall time and the process's CPU per call. Not part of `npm test` or `npm run bench`:
//   node bench/search-classes.ts <sqlite file | postgres://…> [rounds]
import { sql } from 'kysely';
import { encodeCursor, fullTextMatch, openDatabase } from '../src/storage/index.ts';
import { createStores } from '../src/catalogue/stores.ts';
import type { DB } from '../src/catalogue/tables.ts';

const QUERIES = [
  '',
  'faust',
  'kleine',
  'die',
  'd',
  'kl',
  'der kleine garten',
  'müller',
  'froehliche',
  'xyzzy',
];
const LIMIT = 20;
const DEEP_PAGE = 1000;

const url = process.argv[2];
const rounds = Number(process.argv[3] ?? 20);
if (!url) throw new Error('usage: node bench/search-classes.ts <database> [rounds]');
const database = await openDatabase<DB>(url);
const stores = createStores(database.db, { capabilities: database.capabilities });
const target = { idColumn: 'works.id', ftsTable: 'works_fts', vectorColumn: 'works.search_vector' };

/** The cursor after row `offset` of the result (plain filter and sort: slow, run once). */
async function cursorAt(q: string, offset: number): Promise<string | undefined> {
  let query = database.db.selectFrom('works').select(['sort_key', 'id']).where('deleted_at', 'is', null);
  const match = q ? fullTextMatch(database.capabilities, target, q) : null;
  if (match) query = query.where(match);
  const row = await query.orderBy('sort_key').orderBy('id').limit(1).offset(offset).executeTakeFirst();
  return row && encodeCursor([row.sort_key, row.id]);
}

const quantile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? NaN;

console.log(`${database.capabilities.fullText} ${url.replace(/\/\/.*@/, '//…@')}, ${rounds} rounds`);
console.log('query               | page      | rows | p50 ms | p95 ms | cpu ms/call');
for (const q of QUERIES) {
  const second = await cursorAt(q, LIMIT - 1);
  const deep = await cursorAt(q, DEEP_PAGE * LIMIT - 1);
  const pages: [string, { after?: string; before?: string } | undefined][] = [
    ['1', {}],
    ['2', second ? { after: second } : undefined],
    [`${DEEP_PAGE}`, deep ? { after: deep } : undefined],
    [`${DEEP_PAGE} back`, deep ? { before: deep } : undefined],
  ];
  for (const [name, cursor] of pages) {
    if (!cursor) continue;
    const request = { limit: LIMIT, ...cursor, ...(q ? { q } : {}) };
    let rows = 0;
    await stores.works.list(request); // warm the statement cache and the pages read
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      rows = (await stores.works.list(request)).items.length;
      times.push(performance.now() - started);
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / rounds;
    console.log(
      `${JSON.stringify(q).padEnd(19)} | ${name.padEnd(9)} | ${String(rows).padStart(4)} | ${quantile(
        times,
        0.5,
      )
        .toFixed(2)
        .padStart(6)} | ${quantile(times, 0.95).toFixed(2).padStart(6)} | ${cpuMs.toFixed(2).padStart(6)}`,
    );
  }
}
await sql`select 1`.execute(database.db);
await database.close();

// Test support (not used in production): imports a synthetic JSON Lines file into a fresh SQLite
// database in this process (run with --expose-gc) and prints, as one JSON line, the heap in use
// (after a full collection), the resident set size and its anonymous part after the batch that
// reaches line `from` and after the last batch. The memory test compares the two: a streaming import stays flat.
//   node --expose-gc import-memory-child.ts DIR WORKS FROM
import fs from 'node:fs';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../../src/storage/index.ts';
import { catalogueMigrations } from '../../../src/catalogue/migrations/index.ts';
import type { DB } from '../../../src/catalogue/tables.ts';
import { syntheticPersonCount, syntheticRecords } from '../../../src/catalogue/demo/index.ts';
import { importRecords, jsonLine, readJsonLines } from '../../../src/catalogue/transfer/index.ts';

const [dir = '', works = '0', from = '0'] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const file = path.join(dir, 'catalogue.jsonl');
fs.writeFileSync(file, '');
const fd = fs.openSync(file, 'a');
let chunk = '';
for (const record of syntheticRecords(Number(works), 'mem')) {
  chunk += jsonLine(record);
  if (chunk.length > 1 << 20) {
    fs.writeSync(fd, chunk);
    chunk = '';
  }
}
fs.writeSync(fd, chunk);
fs.closeSync(fd);

const database = await openDatabase<DB>(path.join(dir, 'shelfmark.db'));
await migrateToLatest(database, catalogueMigrations);
const samples: { line: number; heap: number; rss: number; anon: number }[] = [];
/** Anonymous resident memory (Linux): the RSS without file pages SQLite maps (mmap_size). */
const anon = () =>
  Number(/RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const sample = (line: number) => {
  gc();
  samples.push({ line, heap: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss(), anon: anon() });
};
// Both taken while the import runs (after a batch), so whatever it holds is still held.
const last = syntheticPersonCount(Number(works)) + Number(works);
let next = Number(from);
const summary = await importRecords(database.db, readJsonLines(fs.createReadStream(file)), {
  onBatch: (line) => {
    if (line < next) return;
    sample(line);
    next = last;
  },
});
await database.close();
process.stdout.write(JSON.stringify({ samples, bad: summary.bad, works: summary.counts.work.new }) + '\n');

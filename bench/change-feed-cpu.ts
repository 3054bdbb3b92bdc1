// `node bench/change-feed-cpu.ts postgres://…`: the change feed's Node CPU per read on
// PostgreSQL, through the pool and Kysely (before ADR 0105) and on the database's own connection,
// in alternating rounds of 4,000 sequential reads on one loaded catalogue (the mixed bench's).
// CPU time (process.cpuUsage) rather than wall time: less sensitive to the machine's load.
import { changeFeed } from '../src/catalogue/changes.ts';
import type { DB } from '../src/catalogue/tables.ts';
import { openDatabase } from '../src/storage/index.ts';

const READS = 4_000;
const url = process.argv[2];
if (!url) throw new Error('usage: node bench/change-feed-cpu.ts postgres://…');
const database = await openDatabase<DB>(url);
const feeds = {
  'pool and Kysely': changeFeed({ ...database, own: undefined }),
  'own connection': changeFeed(database),
};
const cpu = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
try {
  for (let round = 0; round < 3; round++) {
    for (const [name, read] of Object.entries(feeds)) {
      for (let i = 0; i < 500; i++) await read();
      const before = cpu();
      for (let i = 0; i < READS; i++) await read();
      console.log(`${name}: ${((cpu() - before) / READS).toFixed(1)} µs CPU per read`);
    }
  }
} finally {
  await database.close();
}

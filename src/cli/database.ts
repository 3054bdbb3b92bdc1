// `shelfmark migrate` and `shelfmark demo --works N [--output FILE]`.
import fs from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../config/index.ts';
import { openCatalogueDatabase, prepareDatabase } from '../main.ts';
import { importSynthetic, syntheticRecords } from '../catalogue/demo/index.ts';
import { jsonLine } from '../catalogue/transfer/index.ts';
import { optimizeFullText } from '../storage/index.ts';

export async function migrateCommand(config: Config): Promise<number> {
  const { migrations } = await prepareDatabase({ ...config, demo: false });
  process.stdout.write(
    migrations.length ? `applied: ${migrations.join(', ')}\n` : 'the schema is up to date\n',
  );
  return 0;
}

/** Writes the synthetic catalogue as JSON Lines (for `shelfmark import`), with backpressure. */
async function writeSynthetic(file: string, n: number): Promise<void> {
  const out = fs.createWriteStream(file);
  for (const record of syntheticRecords(n, randomBytes(3).toString('hex')))
    if (!out.write(jsonLine(record))) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

export async function demoCommand(config: Config, flags: Record<string, string | boolean>): Promise<number> {
  const raw = flags.works;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0 && n <= 10_000_000) || flags.output === true) {
    process.stderr.write(
      'shelfmark demo: --works N takes a whole number from 1 to 10,000,000; --output a file name\n',
    );
    return 2;
  }
  if (typeof flags.output === 'string') {
    await writeSynthetic(flags.output, n);
    process.stdout.write(`wrote ${n} works and their persons to ${flags.output}\n`);
    return 0;
  }
  await prepareDatabase(config);
  const database = await openCatalogueDatabase(config);
  try {
    // Through the import, as `shelfmark import` of the file `--output` writes would load it.
    const result = await importSynthetic(database.db, n);
    await optimizeFullText(database.db, database.capabilities, ['persons_fts', 'works_fts']);
    // Fresh planner statistics, or PostgreSQL plans the first queries for empty tables.
    await sql`analyze`.execute(database.db);
    process.stdout.write(
      `added ${result.works} works and ${result.persons} persons in ${(result.ms / 1000).toFixed(1)} s\n`,
    );
  } finally {
    await database.close();
  }
  return 0;
}

// `shelfmark migrate` and `shelfmark demo --works N`.
import type { Config } from '../config/index.ts';
import { openCatalogueDatabase, prepareDatabase } from '../main.ts';
import { generateWorks } from '../catalogue/demo/index.ts';
import { optimizeFullText } from '../storage/index.ts';

export async function migrateCommand(config: Config): Promise<number> {
  const { migrations } = await prepareDatabase({ ...config, demo: false });
  process.stdout.write(
    migrations.length ? `applied: ${migrations.join(', ')}\n` : 'the schema is up to date\n',
  );
  return 0;
}

export async function demoCommand(config: Config, flags: Record<string, string | boolean>): Promise<number> {
  const raw = flags.works;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0 && n <= 10_000_000)) {
    process.stderr.write('shelfmark demo: --works N takes a whole number from 1 to 10,000,000\n');
    return 2;
  }
  await prepareDatabase(config);
  const database = await openCatalogueDatabase(config);
  try {
    const result = await generateWorks(database.db, n);
    await optimizeFullText(database.db, database.capabilities, ['persons_fts', 'works_fts']);
    process.stdout.write(
      `added ${result.works} works and ${result.persons} persons in ${(result.ms / 1000).toFixed(1)} s\n`,
    );
  } finally {
    await database.close();
  }
  return 0;
}

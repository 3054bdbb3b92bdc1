// Several real servers (startServer, each with its own representation cache) over one database,
// as several machines behind a load balancer run: the randomized freshness tests of ADR 0088/0098
// (test/writes/fresh-reads-random.test.ts, fresh-lending-random.test.ts) start them here.
import path from 'node:path';
import { loadConfig } from '../../../src/config/index.ts';
import { createStores, type CatalogueStores } from '../../../src/catalogue/stores.ts';
import {
  openCatalogueDatabase,
  prepareDatabase,
  startServer,
  type RunningServer,
} from '../../../src/main.ts';

export { seeded } from '../seeded.ts';

type CatalogueDatabase = Awaited<ReturnType<typeof openCatalogueDatabase>>;

/** Migrates the database the servers will share (no demo data) and fills it through the stores. */
export async function seedCatalogue<T>(
  databaseUrl: string | undefined,
  dataDir: string,
  /** `database`: for rows no store writes (a test setting a column directly). */
  fill: (stores: CatalogueStores, database: CatalogueDatabase) => Promise<T>,
): Promise<T> {
  const env: Record<string, string> = { SHELFMARK_DATA_DIR: dataDir, SHELFMARK_DEMO: '0' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  await prepareDatabase(loaded.config);
  const database = await openCatalogueDatabase(loaded.config);
  try {
    return await fill(createStores(database.db, { capabilities: database.capabilities }), database);
  } finally {
    await database.close();
  }
}

export interface ServerOptions {
  /** Unset: the SQLite file in `dataDir`. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
  /** Each server logs to `<logDir>/<name>`. */
  readonly logDir: string;
  /** Environment over the defaults (port 0 on 127.0.0.1, no demo), e.g. SHELFMARK_CACHE_MIB. */
  readonly env?: Record<string, string>;
  /** The servers' one clock (ADR 0072); default the system's. */
  readonly clock?: () => number;
}

/** One server per name, started in order, on the already-migrated database. */
export async function startServers(
  names: readonly string[],
  options: ServerOptions,
): Promise<RunningServer[]> {
  const servers = [];
  for (const name of names) {
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      SHELFMARK_DATA_DIR: options.dataDir,
      SHELFMARK_LOG_DIR: path.join(options.logDir, name),
      SHELFMARK_DEMO: '0',
      ...options.env,
    };
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    servers.push(await startServer(loaded.config, options.clock ? { clock: options.clock } : {}));
  }
  return servers;
}

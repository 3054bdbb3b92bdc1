// Wires Shelfmark together: configuration in, a running server out. The CLI (src/cli) reads
// the environment and the flags once and hands the validated Config here; nothing below reads
// process.env.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { acceptedOrigins, type Config } from './config/index.ts';
import type { ResourceDefinition } from './http/resource/types.ts';
import { createResourceApp } from './http/index.ts';
import { createHttpServer, type ShelfmarkServer } from './http/server/index.ts';
import {
  compileLogFormat,
  createAccessLog,
  createErrorLog,
  createLogSink,
  logProcessWarnings,
  type ErrorLog,
} from './logging/index.ts';
import { migrateToLatest, openDatabase, type Database } from './storage/index.ts';
import { catalogueResources } from './catalogue/index.ts';
import { catalogueMigrations } from './catalogue/migrations/index.ts';
import type { DB } from './catalogue/schema.ts';
import { createStores } from './catalogue/stores.ts';
import { loadDemo, type DemoResult } from './catalogue/demo/index.ts';
import { createAccountStore, hashPassword, verifyPassword } from './catalogue/accounts/index.ts';
import { SESSION_PATH } from './catalogue/session/index.ts';

export const SERVER_VERSION = `Shelfmark/0.1.0 (Node.js ${process.version})`;

/** Problems that make the configuration unusable even though every value parsed. */
export function checkConfig(config: Config): string[] {
  const problems: string[] = [];
  try {
    compileLogFormat(config.accessLogFormat);
  } catch (err) {
    problems.push(`SHELFMARK_ACCESS_LOG_FORMAT: ${(err as Error).message}`);
  }
  return problems;
}

/** The signing secret: configured, or generated once into the data directory (mode 0600). */
export function resolveSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}

export async function openCatalogueDatabase(config: Config): Promise<Database<DB>> {
  return openDatabase<DB>(config.databaseUrl);
}

/** Runs the migrations and, when configured, loads the demo catalogue into an empty database. */
export async function prepareDatabase(
  config: Config,
): Promise<{ migrations: string[]; demo: DemoResult | null }> {
  const database = await openCatalogueDatabase(config);
  try {
    const migrations = await migrateToLatest(database, catalogueMigrations);
    const demo = config.demo ? await loadDemo(database.db) : null;
    return { migrations, demo };
  } finally {
    await database.close();
  }
}

/** `SHELFMARK_ACCESS_LOG=off`: no access log at all (no line is even formatted). */
export const ACCESS_LOG_OFF = 'off';

export function openLogs(config: Config) {
  const accessSink =
    config.accessLog === ACCESS_LOG_OFF ? undefined : createLogSink(config.accessLog, 'stdout');
  const errorSink = createLogSink(config.errorLog, 'stderr');
  return {
    accessLog: accessSink && createAccessLog(accessSink, config.accessLogFormat),
    errorLog: createErrorLog(errorSink, { level: config.logLevel }),
    accessSink,
    errorSink,
  };
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly server: ShelfmarkServer;
  readonly errorLog: ErrorLog;
  /** The address actually bound (useful with port 0). */
  readonly address: { host: string; port: number };
  stop(graceMs: number): Promise<void>;
  reopenLogs(): Promise<void>;
  /** Last resort at process exit: writes whatever lines are still queued. */
  flushLogsSync(): void;
}

/** What tests may add to a server; production passes nothing (no debug routes). */
export interface StartServerOptions {
  /** Resources served beside the catalogue's, e.g. a handler that throws (test/logs-app). */
  readonly extraResources?: readonly ResourceDefinition[];
}

/** Starts one HTTP server process over an already-migrated database. */
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const database = await openCatalogueDatabase(config);
  const stores = createStores(database.db, { capabilities: database.capabilities });
  const logs = openLogs(config);
  const stopWarnings = logProcessWarnings(logs.errorLog);
  const catalogue = catalogueResources(stores, { errorLogPath: config.errorLog });
  const accounts = createAccountStore(database.db);
  // Verified for unknown user names, so they cost as much time as a wrong password.
  const dummyHash = await hashPassword(randomBytes(16).toString('base64url'));
  let server: ShelfmarkServer | undefined;
  const app = await createResourceApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    resources: [...catalogue.resources, ...(options.extraResources ?? [])],
    rewrites: catalogue.rewrites,
    passthrough: catalogue.passthrough,
    configure: catalogue.configure,
    errorPage: catalogue.errorPage,
    security: {
      secrets: [resolveSecret(config)],
      findUser: (username) => accounts.findByUsername(username),
      findUserById: (id) => accounts.findById(id),
      verifyPassword,
      dummyHash,
      origins: acceptedOrigins(config.baseUrl),
    },
    loginPath: SESSION_PATH,
    requirePreconditions: config.requirePreconditions,
    displayErrors: config.displayErrors,
    production: !config.displayErrors,
    reportError: (error, raw) => logs.errorLog.requestError(error, raw),
    // createHttpServer answers and logs what Node's parser rejects; Fastify must not answer too.
    handlesClientErrors: true,
    serverFactory: (handler) => {
      server = createHttpServer({
        handler,
        accessLog: logs.accessLog,
        errorLog: logs.errorLog,
        trustProxy: config.trustProxy,
      });
      return server;
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const bound = app.server.address();
  const address =
    bound && typeof bound === 'object'
      ? { host: bound.address, port: bound.port }
      : { host: config.host, port: config.port };
  if (!server) throw new Error('the HTTP server was not created');
  const httpServer = server;
  return {
    app,
    server: httpServer,
    errorLog: logs.errorLog,
    address,
    async stop(graceMs) {
      try {
        await httpServer.stop(graceMs);
        await app.close().catch(() => undefined);
        stopWarnings();
        await database.close();
      } finally {
        // The logs are closed (flushed) whatever went wrong above.
        await Promise.all([logs.accessSink?.close(), logs.errorSink.close()]);
      }
    },
    flushLogsSync() {
      logs.accessSink?.flushSync();
      logs.errorSink.flushSync();
    },
    async reopenLogs() {
      await Promise.all([logs.accessSink?.reopen(), logs.errorSink.reopen()]);
    },
  };
}

// Wires Shelfmark together: configuration in, a running server out. The CLI (src/cli) reads
// the environment and the flags once and hands the validated Config here; nothing below reads
// process.env.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { acceptedOrigins, configWarnings, type Config } from './config/index.ts';
import { SERVER_VERSION } from './config/version.ts';
import type { ResourceDefinition } from './http/resource/types.ts';
import { accessUser, createResourceApp, RepresentationCache } from './http/index.ts';
import {
  createHttpServer,
  listenOnInherited,
  type ServerLimits,
  type ShelfmarkServer,
} from './server/index.ts';
import {
  createAccessLog,
  createErrorLog,
  createLogSink,
  logProcessWarnings,
  runInRequest,
  countingAccessLog,
  ProcessScoreboard,
  singleProcessStatus,
  type ErrorLog,
  type ServerStatus,
} from './logging/index.ts';
import {
  migrateToLatest,
  openDatabase,
  sqlitePath,
  openCommitMark,
  TransientStorageError,
  type Database,
  type OpenOptions,
} from './storage/index.ts';
import { catalogueResources } from './catalogue/index.ts';
import {
  createNoticeJob,
  smtpMailer,
  startNoticeTimer,
  type Mailer,
  type NoticeJob,
} from './catalogue/notices/index.ts';
import { catalogueMigrations } from './catalogue/migrations/index.ts';
import type { DB } from './catalogue/tables.ts';
import { createStores } from './catalogue/stores.ts';
import { bumpChangeCounter, changeCount, changeFeed } from './catalogue/changes.ts';
import { loadDemo, type DemoResult } from './catalogue/demo/index.ts';
import {
  createDatabaseLoginLimiter,
  createLoginReader,
  hashPassword,
  storedSessionSecret,
  verifyPassword,
} from './catalogue/accounts/index.ts';
import { SESSION_PATH } from './catalogue/session/index.ts';
import { maskResetLinks, resetMail } from './catalogue/password-reset/index.ts';

/** Failed log-ins per client address (any account) in 15 minutes before it gets 429. */
const ADDRESS_MAX_FAILURES = 50;

/** Password reset requests per given name or address, and per client address, in 15 minutes (ADR 0093). */
const RESETS_PER_ACCOUNT = 3;
const RESETS_PER_CLIENT = 10;

/** A request that takes longer is a `warn` entry (docs/errors.md, "Warnings"). */
export const SLOW_REQUEST_MS = 10_000;

export { SERVER_VERSION };

/**
 * The signing secret: configured, or generated once and kept in the database, so every worker
 * and machine on one database shares it (docs/decisions/0032). A secret an older version
 * generated into the data directory is adopted, so its sessions survive the upgrade.
 */
export async function resolveSecret(config: Config, db: Kysely<DB>): Promise<string> {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  return storedSessionSecret(db, () =>
    existsSync(file) ? readFileSync(file, 'utf8').trim() : randomBytes(32).toString('base64url'),
  );
}

export async function openCatalogueDatabase(
  config: Config,
  options: OpenOptions = {},
): Promise<Database<DB>> {
  return openDatabase<DB>(config.databaseUrl, options);
}

/**
 * Writes an error that reached the resource layer: a busy or unreachable database (503) as one
 * entry per kind plus "repeated N times" summaries, anything else (a 500) in full every time.
 */
export function reportRequestError(errorLog: ErrorLog, error: unknown, raw?: IncomingMessage): void {
  if (error instanceof TransientStorageError) {
    const level = error.name === 'BusyError' ? 'warn' : 'error';
    errorLog.repeatedError(`${error.name}: ${error.message}`, level, error, raw);
  } else {
    errorLog.requestError(error, raw);
  }
}

/** Runs the migrations and, when configured, loads the demo catalogue into an empty database. */
export async function prepareDatabase(
  config: Config,
): Promise<{ migrations: string[]; demo: DemoResult | null }> {
  const database = await openCatalogueDatabase(config);
  try {
    const migrations = await migrateToLatest(database, catalogueMigrations);
    const demo = config.demo ? await loadDemo(database.db) : null;
    // Before any worker starts, so that they all read the same one.
    await resolveSecret(config, database.db);
    return { migrations, demo };
  } finally {
    await database.close();
  }
}

/** `SHELFMARK_ACCESS_LOG=off`: no access log at all (no line is even formatted). */
export const ACCESS_LOG_OFF = 'off';

export function openLogs(config: Config) {
  const accessSink =
    config.accessLog === ACCESS_LOG_OFF
      ? undefined
      : createLogSink(config.accessLog, 'stdout', { turn: true });
  const errorSink = createLogSink(config.errorLog, 'stderr');
  return {
    accessLog: accessSink && createAccessLog(accessSink, config.accessLogFormat),
    errorLog: createErrorLog(errorSink, { level: config.logLevel }),
    accessSink,
    errorSink,
  };
}

/**
 * The notice job over `db` as configured (ADR 0085), with its mailer to close; null when no SMTP
 * host is set. `now` is the job's clock (tests inject one).
 */
export function configuredNoticeJob(
  config: Config,
  db: Kysely<DB>,
  now: () => Date = () => new Date(),
  shared?: Mailer,
): { job: NoticeJob; mailer: Mailer } | null {
  const mailer = shared ?? configuredMailer(config);
  if (!mailer) return null;
  const job = createNoticeJob(db, mailer, {
    now,
    rules: {
      dueSoonDays: config.noticeDueSoonDays,
      firstReminderDays: config.noticeFirstReminderDays,
      secondReminderDays: config.noticeSecondReminderDays,
    },
    absolute: (p) => config.baseUrl + p,
    messageDomain: new URL(config.baseUrl).hostname,
  });
  return { job, mailer };
}

/** The SMTP transport to the configured server (ADR 0085); null when no SMTP host is set. */
export function configuredMailer(config: Config): Mailer | null {
  if (config.smtpHost === undefined || config.smtpHost === '') return null;
  return smtpMailer({
    host: config.smtpHost,
    port: config.smtpPort,
    tls: config.smtpTls,
    from: config.smtpFrom,
    user: config.smtpUser,
    password: config.smtpPassword,
  });
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly server: ShelfmarkServer;
  readonly errorLog: ErrorLog;
  /** The address actually bound (useful with port 0). */
  readonly address: { host: string; port: number };
  /** This process's representation cache: stats() counts entries and bytes (ADR 0048). */
  readonly representationCache: RepresentationCache;
  /** This process's requests for /server-status (ADR 0015). */
  readonly scoreboard: ProcessScoreboard;
  stop(graceMs: number): Promise<void>;
  reopenLogs(): Promise<void>;
  /** Last resort at process exit: writes whatever lines are still queued. */
  flushLogsSync(): void;
}

/** What tests may add to a server; production passes nothing (no debug routes). */
export interface StartServerOptions {
  /** Resources served beside the catalogue's, e.g. a handler that throws (test/logs-app). */
  readonly extraResources?: readonly ResourceDefinition[];
  /** How often the live error-log stream re-checks the staff role (default 10 s). */
  readonly liveAccessCheckMs?: number;
  /** Server limits other than httpd's defaults (tests shorten the timeouts). */
  readonly limits?: Partial<ServerLimits>;
  /** This process's counts for /server-status (a worker's is also read by the supervisor). */
  readonly scoreboard?: ProcessScoreboard;
  /** The whole server's status (under the supervisor: every worker's); default: this process's. */
  readonly serverStatus?: () => Promise<ServerStatus>;
  /** A request slower than this is a warning (default SLOW_REQUEST_MS). */
  readonly slowRequestMs?: number;
  /** Under the supervisor: listen on the socket it keeps, this descriptor (ADR 0087), not on config's address. */
  readonly inheritedFd?: number;
  /**
   * Milliseconds since the epoch (default Date.now): the one clock of the layer and the
   * catalogue's stores (ADR 0072), so tests set the time instead of waiting for it.
   */
  readonly clock?: () => number;
  /** The notice job's clock (default: the one clock above; tests inject one). */
  readonly noticeClock?: () => Date;
}

/** Starts one HTTP server process over an already-migrated database. */
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const logs = openLogs(config);
  for (const warning of configWarnings(config)) logs.errorLog.warning(warning);
  const scoreboard = options.scoreboard ?? new ProcessScoreboard();
  const startMs = Date.now();
  const serverStatus =
    options.serverStatus ??
    (() => Promise.resolve(singleProcessStatus(scoreboard, { serverVersion: SERVER_VERSION, startMs })));
  const database = await openCatalogueDatabase(config, {
    onConnectionError: (error) => reportRequestError(logs.errorLog, error),
  });
  const clock = options.clock ?? Date.now;
  const now = () => new Date(clock());
  const stores = createStores(database.db, {
    now,
    capabilities: database.capabilities,
    holdDays: config.holdDays,
    maxRenewals: config.maxRenewals,
    overdueBlockDays: config.overdueBlockDays,
    loanLimit: config.loanLimit,
  });
  const stopWarnings = logProcessWarnings(logs.errorLog);
  // Notices: every process runs the job on its own timer; claims in the database keep each
  // notice to one sender (ADR 0085).
  // One SMTP transport for the notices and the password reset's mails.
  const mailer = configuredMailer(config);
  const notices =
    mailer && config.noticeIntervalSeconds > 0
      ? configuredNoticeJob(config, database.db, options.noticeClock ?? now, mailer)
      : null;
  const passwordResetMail = mailer
    ? resetMail(database.db, {
        mailer,
        absolute: (p) => config.baseUrl + p,
        messageDomain: new URL(config.baseUrl).hostname,
        now,
        onError: (error) => logs.errorLog.repeatedError('password reset mail', 'error', error),
      })
    : null;
  const stopNotices = notices
    ? startNoticeTimer(notices.job, config.noticeIntervalSeconds * 1000, (error) =>
        logs.errorLog.repeatedError('notices', 'error', error),
      )
    : async () => undefined;
  // SQLite: the change read on a read-only connection of its own, so a cache hit never waits
  // for a write transaction holding the main one (ADR 0088).
  const sideReader =
    database.dialect === 'sqlite' && config.cacheMiB > 0 && sqlitePath(config.databaseUrl) !== ':memory:'
      ? new DatabaseSync(sqlitePath(config.databaseUrl), { readOnly: true })
      : undefined;
  const representationCache = new RepresentationCache({
    maxBytes: config.cacheMiB * 1024 * 1024,
    changes: changeFeed(database, sideReader, sideReader && openCommitMark(sqlitePath(config.databaseUrl))),
  });
  const accounts = stores.accounts;
  const catalogue = catalogueResources(stores, {
    now,
    errorLogPath: config.errorLog,
    ...(config.adminEmail !== undefined && { adminEmail: config.adminEmail }),
    holdDays: config.holdDays,
    memberReturns: config.memberReturns,
    maxRenewals: config.maxRenewals,
    overdueBlockDays: config.overdueBlockDays,
    passwordReset: {
      store: stores.passwordResets,
      mail: passwordResetMail,
      // Counted in the login-failure table, under keys no log-in uses (ADR 0093).
      perAccount: createDatabaseLoginLimiter(database.db, { maxFailures: RESETS_PER_ACCOUNT }),
      perClient: createDatabaseLoginLimiter(database.db, { maxFailures: RESETS_PER_CLIENT }),
    },
    serverStatus,
    currentPrincipal: async (id) => {
      const account = await accounts.findById(id);
      if (!account || account.locked) return null;
      return { id: account.id, username: account.username, role: account.role };
    },
    ...(options.liveAccessCheckMs !== undefined && { liveAccessCheckMs: options.liveAccessCheckMs }),
  });
  // Verified for unknown user names, so they cost as much time as a wrong password.
  const dummyHash = await hashPassword(randomBytes(16).toString('base64url'));
  // A password check's reads (the two limiters' counts, the account) share one statement (ADR 0111).
  const logins = createLoginReader(database.db);
  let server: ShelfmarkServer | undefined;
  const app = await createResourceApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    resources: [...catalogue.resources, ...(options.extraResources ?? [])],
    rewrites: catalogue.rewrites,
    passthrough: catalogue.passthrough,
    configure: catalogue.configure,
    errorPage: catalogue.errorPage,
    security: {
      secrets: [await resolveSecret(config, database.db)],
      // Failed log-ins counted in the database: shared by workers and machines, kept over restarts.
      limiter: createDatabaseLoginLimiter(database.db, { reader: logins }),
      addressLimiter: createDatabaseLoginLimiter(database.db, {
        maxFailures: ADDRESS_MAX_FAILURES,
        reader: logins,
      }),
      // A limit reached ends every remembered Basic answer, in every process (ADR 0069).
      onLimitReached: () => bumpChangeCounter(database.db),
      findUser: (username) => logins.account(username),
      findUserById: (id) => accounts.findById(id),
      sessionRecords: stores.sessions,
      verifyPassword,
      dummyHash,
      origins: [...acceptedOrigins(config.baseUrl), ...config.corsOrigins],
    },
    loginPath: SESSION_PATH,
    requirePreconditions: config.requirePreconditions,
    representationCache,
    clock,
    // /up: one single-row read, the one the representation cache makes before every GET.
    health: { check: () => changeCount(database.db) },
    displayErrors: config.displayErrors,
    reportError: (error, raw) => reportRequestError(logs.errorLog, error, raw),
    errorLog: logs.errorLog,
    documentRoot: config.documentRoot,
    slowRequestMs: options.slowRequestMs ?? SLOW_REQUEST_MS,
    // createHttpServer answers and logs what Node's parser rejects; Fastify must not answer too.
    handlesClientErrors: true,
    serverFactory: (handler) => {
      server = createHttpServer({
        // Busy from the handler until the response closes: mod_status's 'W'.
        handler: (req, res) => {
          scoreboard.begin();
          res.once('close', () => scoreboard.end());
          // A process warning raised by this request's code names its client (request-scope.ts).
          runInRequest(req, () => handler(req, res));
        },
        // Every access-log record is counted, also with the access log off (Total Accesses).
        accessLog: countingAccessLog(scoreboard, logs.accessLog),
        errorLog: logs.errorLog,
        trustProxy: config.trustProxy,
        // %u: who the layer authenticated (its request state), escaped by the server.
        accessUser,
        // A reset link's token stays out of the access log (ADR 0093).
        maskTarget: maskResetLinks,
        limits: options.limits,
      });
      return server;
    },
  });
  if (options.inheritedFd === undefined) await app.listen({ port: config.port, host: config.host });
  else {
    await app.ready();
    await listenOnInherited(app.server, options.inheritedFd);
  }
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
    representationCache,
    scoreboard,
    async stop(graceMs) {
      try {
        await httpServer.stop(graceMs);
        await app.close().catch(() => undefined);
        await stopNotices();
        await passwordResetMail?.drain();
        mailer?.close();
        stopWarnings();
        await database.close();
        sideReader?.close();
      } finally {
        // The logs are closed (flushed) whatever went wrong above.
        logs.errorLog.flushRepeats();
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

// Typed storage errors. Both drivers translate the engine's own error codes into these, so
// callers (stores, HTTP handlers) can answer 409 / 503 without knowing which database runs.

/** Base class of every error the storage layer raises on purpose. */
export class StorageError extends Error {
  override name = 'StorageError';
}

/** A unique (or primary key) constraint was violated: the thing already exists → 409. */
export class ConflictError extends StorageError {
  override name = 'ConflictError';
  /** Constraint or column named by the engine, when it says (e.g. `persons.slug`). */
  readonly constraint: string | undefined;
  constructor(message: string, constraint?: string, options?: ErrorOptions) {
    super(message, options);
    this.constraint = constraint;
  }
}

/** A foreign key was violated: the referenced row is missing, or a row is still referenced. */
export class ForeignKeyError extends StorageError {
  override name = 'ForeignKeyError';
}

/** A CHECK or NOT NULL constraint rejected the data (a bug or an unvalidated input). */
export class CheckError extends StorageError {
  override name = 'CheckError';
}

/**
 * The database cannot answer now but will again without anyone changing the request: the
 * client should retry after `retryAfterSeconds` (→ 503 with Retry-After). Logged as one entry
 * plus "repeated N times" summaries, never once per request (ADR 0046).
 */
export abstract class TransientStorageError extends StorageError {
  abstract readonly retryAfterSeconds: number;
}

/** The database was locked / serialisation failed / deadlock: retry in a moment → 503. */
export class BusyError extends TransientStorageError {
  override name = 'BusyError';
  readonly retryAfterSeconds = 1;
}

/**
 * A PostgreSQL deadlock (40P01) or serialisation failure (40001): the server rolled the
 * transaction back to resolve a conflict with another one, so running the same work again may
 * well succeed — unlike a lock that stayed taken (SQLite busy, 55P03), which already waited.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof BusyError)) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * The database is unreachable or refuses work: connection refused or lost, shutting down,
 * too many clients, a read-only or full file. An operator (or a restart) fixes it → 503.
 */
export class UnavailableError extends TransientStorageError {
  override name = 'UnavailableError';
  readonly retryAfterSeconds = 5;
}

/** A paging cursor that this code did not write (tampered or from another list) → 400. */
export class InvalidCursorError extends StorageError {
  override name = 'InvalidCursorError';
}

// SQLite extended result codes (https://sqlite.org/rescode.html).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_CONSTRAINT_CHECK = 275;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
const SQLITE_CONSTRAINT_NOTNULL = 1299;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

interface EngineError {
  code?: unknown;
  errcode?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/**
 * Translates a driver error (node:sqlite or pg) into a typed StorageError; anything it does
 * not recognise is returned unchanged. The original error is kept as `cause`.
 */
export function mapDatabaseError(error: unknown): unknown {
  if (error instanceof StorageError || typeof error !== 'object' || error === null) return error;
  const e = error as EngineError;
  const message = typeof e.message === 'string' ? e.message : 'database error';
  const options = { cause: error };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    switch (e.errcode) {
      case SQLITE_CONSTRAINT_UNIQUE:
      case SQLITE_CONSTRAINT_PRIMARYKEY:
        return new ConflictError(message, /failed: (.+)$/.exec(message)?.[1], options);
      case SQLITE_CONSTRAINT_FOREIGNKEY:
        return new ForeignKeyError(message, options);
      case SQLITE_CONSTRAINT_CHECK:
      case SQLITE_CONSTRAINT_NOTNULL:
        return new CheckError(message, options);
    }
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return new BusyError(message, options);
    if (SQLITE_UNAVAILABLE.has(primary)) return new UnavailableError(message, options);
    return error;
  }
  // PostgreSQL SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    const constraint = typeof e.constraint === 'string' ? e.constraint : undefined;
    switch (e.code) {
      case '23505':
        return new ConflictError(message, constraint, options);
      case '23503':
        return new ForeignKeyError(message, options);
      case '23514':
      case '23502':
        return new CheckError(message, options);
      case '40001': // serialization_failure
      case '40P01': // deadlock_detected
      case '55P03': // lock_not_available
        return new BusyError(message, options);
    }
    if (PG_UNAVAILABLE.test(e.code)) return new UnavailableError(message, options);
  }
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return new UnavailableError(message, options);
  if (PG_CONNECTION_LOST.test(message)) return new UnavailableError(message, options);
  return error;
}

/** SQLite primary codes that say the file cannot be written now (the driver reopens it). */
const SQLITE_UNAVAILABLE = new Set([SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN]);

/** Whether an SQLite error means the connection should be reopened before it is used again. */
export function needsReopen(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = (error instanceof StorageError ? error.cause : error) as EngineError | undefined;
  return (
    e?.code === 'ERR_SQLITE_ERROR' &&
    typeof e.errcode === 'number' &&
    SQLITE_UNAVAILABLE.has(e.errcode & 0xff)
  );
}

/**
 * SQLSTATEs of a server that is unreachable or refusing work: class 08 (connection exception),
 * 53 (insufficient resources: too many connections, disk full, out of memory), 57P01–57P03
 * (admin/crash shutdown, cannot connect now) and 25006 (a read-only standby after failover).
 */
const PG_UNAVAILABLE = /^(08...|53...|57P0[123]|25006)$/;

/** Socket errors of a lost or refused connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
]);

/** pg's own messages for a connection that died or could not be had (they carry no code). */
const PG_CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

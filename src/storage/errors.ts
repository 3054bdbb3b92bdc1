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

/** The database was locked / serialisation failed / deadlock: retry later → 503. */
export class BusyError extends StorageError {
  override name = 'BusyError';
}

/** A paging cursor that this code did not write (tampered or from another list) → 400. */
export class InvalidCursorError extends StorageError {
  override name = 'InvalidCursorError';
}

// SQLite extended result codes (https://sqlite.org/rescode.html).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
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
  }
  return error;
}

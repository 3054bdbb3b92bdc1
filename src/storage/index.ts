// Public surface of the storage layer (generic: knows no catalogue tables).
export {
  openDatabase,
  detectCapabilities,
  detectDialect,
  isPostgresUrl,
  sqlitePath,
  CAPABILITIES,
  type Capabilities,
  type Database,
  type DialectName,
  type OpenOptions,
} from './open.ts';
export { NodeSqliteDialect, Mutex, type NodeSqliteOptions } from './sqlite-driver.ts';
export { withErrorMapping } from './error-mapping.ts';
export {
  StorageError,
  ConflictError,
  ForeignKeyError,
  CheckError,
  BusyError,
  InvalidCursorError,
  mapDatabaseError,
} from './errors.ts';
export {
  migrateToLatest,
  migrateDown,
  MigrationFailedError,
  type MigrationContext,
  type MigrationSet,
} from './migrate.ts';
export {
  encodeCursor,
  decodeCursor,
  slice,
  clampLimit,
  keysetPage,
  type KeysetRequest,
  type KeysetQueries,
  type Key,
  type KeyValue,
  type Direction,
  type SliceResult,
} from './keyset.ts';
export {
  transliterate,
  slugify,
  slugCandidate,
  sortKey,
  filingName,
  searchText,
  searchTokens,
} from './text.ts';
export {
  testTargets,
  openTempSqlite,
  openFreshSchema,
  PG_SKIP_REASON,
  type TestDatabase,
  type TestTarget,
} from './testing.ts';
export {
  fullTextMatch,
  planFullText,
  fts5Query,
  tsQuery,
  spellings,
  COMMON_SHARE,
  type FullTextPlan,
  type FullTextTarget,
} from './fulltext.ts';
export {
  searchKeyset,
  searchRows,
  keyRangeFilters,
  WALK_WINDOW,
  type KeyRange,
  type KeysetScan,
} from './search-page.ts';

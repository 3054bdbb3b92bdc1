// Public surface of the storage layer (generic: knows no catalogue tables).
export {
  openDatabase,
  detectCapabilities,
  detectDialect,
  immediateReadOf,
  isPostgresUrl,
  sqlitePath,
  CAPABILITIES,
  type Capabilities,
  type Database,
  type DialectName,
  type OpenOptions,
  type ReadNow,
} from './open.ts';
export { NodeSqliteDialect, Mutex, type NodeSqliteOptions } from './sqlite-driver.ts';
export { withErrorMapping } from './error-mapping.ts';
export {
  StorageError,
  ConflictError,
  ForeignKeyError,
  CheckError,
  BusyError,
  isTransactionConflict,
  UnavailableError,
  TransientStorageError,
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
  surnameProper,
  searchText,
  searchTokens,
} from './text.ts';
export { stems, MIN_STEM_LENGTH } from './stems.ts';
export { jsonRows, parseJsonRows, type JsonRows } from './json-rows.ts';
export { idList, inIdList, inIds } from './id-list.ts';
export { suggestQuery, oneEditAway, SUGGEST_MIN_LENGTH } from './suggest.ts';
export {
  fullTextMatch,
  fullTextRowTest,
  fts5Query,
  tsQuery,
  spellings,
  wordTerms,
  optimizeFullText,
  type FullTextTarget,
} from './fulltext.ts';
export {
  planFullText,
  commonThreshold,
  COMMON_SHARE,
  FTS5_PREFIX_LENGTHS,
  type FullTextPlan,
  type RowFilter,
} from './fulltext-plan.ts';
export {
  searchKeyset,
  searchRows,
  keyRangeFilters,
  WALK_WINDOW,
  MAX_WALK_WINDOW,
  walkWindow,
  type KeyRange,
  type KeysetScan,
} from './search-page.ts';
export {
  termCount,
  termScan,
  termGroups,
  withGroup,
  hasTermIndex,
  TERM_PREFIX_LENGTH,
  MAX_KEYS_PER_WORD,
  type TermQuery,
  type TermRange,
} from './term-index.ts';
export { placeUnranked, renumberAll, fullyRanked, RANK_GAP } from './list-rank.ts';
export { prepare, param, type PreparedQuery } from './prepared.ts';
export { statementName, wantsGenericPlan, withGenericPlan, withStatementName } from './statement-name.ts';
export { type OwnConnection } from './postgres/own-connection.ts';
export { GENERIC_PLAN_SETTING } from './postgres/driver.ts';
export { serialSharedRead, sharedRead } from './shared-read.ts';
export { SQLITE_CACHE_KIB, SQLITE_MMAP_BYTES } from './sqlite-connection.ts';
export { openCommitMark, type CommitMark } from './sqlite-commit-mark.ts';

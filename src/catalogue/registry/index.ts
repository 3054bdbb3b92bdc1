// The catalogue's registry (ADR 0090): what each resource and each kind of record is, declared
// once, and what is derived from it (rewrite rules, routes, link builders, served schemas,
// robots.txt's disallowed paths; ADR 0097).
export {
  RESOURCE_URLS,
  SCHEMA_NAMES,
  type ResourceUrl,
  type SchemaName,
  type Section,
  type UrlId,
} from './urls.ts';
export {
  disallowedPaths,
  isNumberParameter,
  parametersOf,
  pathBuilder,
  resourceUrl,
  rewriteRule,
  routeOf,
  routeQuery,
} from './templates.ts';
export {
  RECORD_KINDS,
  tablesWith,
  type ListedTable,
  type RecordTable,
  type SitemapTable,
  type SlugKind,
  type VersionedTable,
} from './kinds.ts';

// The catalogue's registry (ADR 0090): what each resource and each kind of record is, declared
// once, and what is derived from it (rewrite rules, routes, link builders).
export { RESOURCE_URLS, type ResourceUrl, type Section, type UrlId } from './urls.ts';
export {
  isNumberParameter,
  parametersOf,
  pathBuilder,
  resourceUrl,
  rewriteRule,
  routeOf,
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

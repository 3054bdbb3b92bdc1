// The shared folder's public surface: other folders import it from here only (docs/architecture.md).
export { claimRow, softDelete } from './claim-row.ts';
export { clockChanges, earliestFreshUntil, freshUntilField } from './clock-changes.ts';
export {
  ChangedMeanwhileError,
  compareAndSet,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from './compare-and-set.ts';
export { momentHtml, momentText } from './dates.ts';
export { HttpError, gone, notFound } from './errors.ts';
export { parseId } from './ids.ts';
export {
  besidePage,
  keyedList,
  totalFor,
  LIST_KEY_TYPES,
  SEARCH_COUNT_CAP,
  type ListScope,
} from './keyed-list.ts';
export { lookUp, resolve, type Finder } from './lookup.ts';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  ORDERS,
  linkHeaders,
  listQuery,
  loadPage,
  pageLinks,
  pagePath,
  suggestionLink,
  type ListQuery,
  type PageLinks,
  type SuggestionLink,
} from './paging.ts';
export { totalHtml, totalJson, totalXml } from './total-view.ts';
export {
  DEFAULT_IMAGE,
  copiesPath,
  copyPath,
  fullName,
  imageAbsolute,
  imageRelative,
  lifeDatesPath,
  personPath,
  suffixPath,
  workPath,
  PERSONS_PATH,
  WORKS_PATH,
} from './urls.ts';
export { latestStamp, personIdsOf, touchPersonsOf, touchRows, touchWorksOf } from './versions.ts';
export { countedPage } from './keyed-page.ts';

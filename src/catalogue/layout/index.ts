export { layout, OPENSEARCH_PATH, type Page, type PageAlternate, type PageContext } from './page.ts';
export { pagingNav, pagingHeadLinks } from './paging.ts';
export { listTable, loansTable } from './list-table.ts';
export {
  createErrorPage,
  errorPage,
  type ErrorPage,
  type ErrorPageSlots,
  type ProblemLike,
} from './error-page.ts';

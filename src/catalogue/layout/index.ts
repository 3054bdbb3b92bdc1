export { layout, type Page, type PageContext } from './page.ts';
export { pagingNav, pagingHeadLinks } from './paging.ts';
export {
  createErrorPage,
  errorPage,
  type ErrorPage,
  type ErrorPageSlots,
  type ProblemLike,
} from './error-page.ts';

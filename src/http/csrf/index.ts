export { createCsrfGuard } from './guard.ts';
export type { CsrfGuard } from './guard.ts';
export { DEFAULT_CSRF_MAX_AGE } from './token.ts';

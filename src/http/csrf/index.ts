export { createCsrfGuard, DEFAULT_CSRF_MAX_AGE, type CsrfGuard } from './guard.ts';

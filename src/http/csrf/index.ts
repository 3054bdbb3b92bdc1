export { createCsrfGuard, CsrfError, tokenOf, CSRF_FIELD, CSRF_HEADER } from './guard.ts';
export type { CsrfAuth, CsrfGuard, CsrfGuardOptions, CsrfReason, CsrfRequest } from './guard.ts';
export { checkOrigin } from './origin.ts';
export type { OriginHeaders, OriginMode, OriginVerdict } from './origin.ts';
export { createCsrfTokens, DEFAULT_CSRF_MAX_AGE } from './token.ts';
export type { CsrfTokens, CsrfTokenOptions, TokenVerdict } from './token.ts';

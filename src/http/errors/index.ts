export { HttpError } from './http-error.ts';
export type { LocalDetail } from './http-error.ts';
export { ERROR_CODES } from './codes.ts';
export type { ErrorCode } from './codes.ts';
export type { Problem } from './problem.ts';
export { rootRelative } from './error-page.ts';
export type { ErrorPageContext } from './error-page.ts';
export { problemSchemas } from './schema/schemas.ts';

export { HttpError } from './http-error.ts';
export type {
  AvailableLink,
  FieldError,
  HttpErrorOptions,
  LocalDetail,
  ProblemExtensions,
} from './http-error.ts';
export { ERROR_CODES, codeForStatus } from './codes.ts';
export type { ErrorCode } from './codes.ts';
export { problemJson, problemXml, PROBLEM_JSON, PROBLEM_XML, PROBLEM_NAMESPACE } from './problem.ts';
export type { Problem } from './problem.ts';
export { builtInErrorPage, localTitle, rootRelative } from './error-page.ts';
export type { ErrorPage, ErrorPageContext } from './error-page.ts';
export { exceptionDetails } from './exception-details.ts';
export type { ExceptionDetails } from './exception-details.ts';
export { toProblem } from './to-problem.ts';
export type { ProblemOutcome } from './to-problem.ts';
export { problemSchemas, PROBLEM_XSD_PATH, PROBLEM_JSON_SCHEMA_PATH } from './schema/schemas.ts';

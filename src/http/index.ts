// The domain-free resource layer (design §2–§6). An application declares resources and a
// rewrite table; the layer does negotiation, links, conditional requests, methods and errors.
export { createResourceApp } from './app/create-app.ts';
export type { ResourceAppOptions } from './app/options.ts';
export { originalUrl, overrideMethod, effectiveMethod } from './app/request-state.ts';
export { allowOf } from './app/dispatch.ts';
export { requestPrincipal } from './app/principal.ts';
export { etagOf, noneMatch, strongMatch, notModified } from './conditional/conditional.ts';
export {
  HttpError,
  isHttpError,
  ERROR_CODES,
  builtInErrorPage,
  localTitle,
  exceptionDetails,
  problemJson,
  problemXml,
} from './errors/index.ts';
export type {
  ErrorCode,
  ErrorPage,
  ErrorPageContext,
  ExceptionDetails,
  FieldError,
  HttpErrorOptions,
  Problem,
} from './errors/index.ts';
export { chooseFormat, negotiateAccept, negotiateLanguage, CONTENT_TYPES } from './negotiation/index.ts';
export { rewrite, resolveUrl, withSuffix } from './rewrite/index.ts';
export { createLinks, parseBase } from './links/index.ts';
export * from './resource/types.ts';
export { html, xml, trusted, isMarkup, XML_DECLARATION } from './representation/markup.ts';
export type { Markup } from './representation/markup.ts';

// The domain-free resource layer (docs/architecture.md). An application declares resources and a
// rewrite table; the layer does negotiation, links, conditional requests, methods and errors.
export { createResourceApp } from './app/create-app.ts';
export type { ResourceAppOptions } from './app/options.ts';
export { requestPrincipal, requestLinks, accessUser } from './app/request-state.ts';
export { allowOf } from './app/dispatch.ts';
export { prepareFixed, sendFixed } from './app/respond.ts';
export {
  etagOf,
  noneMatch,
  strongMatch,
  lastModifiedToSend,
  notModified,
} from './conditional/conditional.ts';
export {
  RepresentationCache,
  type CachedRepresentation,
  type RepresentationCacheOptions,
  type RepresentationCacheStats,
} from './cache/index.ts';
export {
  HttpError,
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
export { rewrite, resolveUrl, withSuffix, keepFormat } from './rewrite/index.ts';
export { createLinks, parseBase } from './links/index.ts';
export * from './resource/types.ts';
export { html, xml, trusted, isMarkup, XML_DECLARATION } from './representation/markup.ts';
export type { Markup } from './representation/markup.ts';

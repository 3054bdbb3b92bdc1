// The domain-free resource layer (docs/architecture.md). An application declares resources and a
// rewrite table; the layer does negotiation, links, conditional requests, methods and errors.
export { createResourceApp } from './app/create-app.ts';
export type { ResourceAppOptions } from './app/options.ts';
export { requestPrincipal, requestLinks, accessUser } from './app/request-state.ts';
export { prepareFixed, sendPrepared } from './app/respond.ts';
export { RepresentationCache, type CachedRepresentation } from './cache/index.ts';
export { createLinks, parseBase } from './links/index.ts';
export * from './resource/types.ts';
export { XML_DECLARATION } from './representation/markup.ts';

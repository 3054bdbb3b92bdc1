// Public surface of src/http/server.
export {
  createHttpServer,
  DEFAULT_LIMITS,
  type HttpServerOptions,
  type ServerLimits,
  type ShelfmarkServer,
  type RequestHandler,
} from './create-server.ts';
export {
  parseRawHead,
  splitRequestLine,
  rebuildRequestLine,
  REQUEST_LINE_MAX,
  type RawHead,
} from './raw-head.ts';
export { errorDocument } from './rejection.ts';

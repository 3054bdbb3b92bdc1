// Public surface of src/server: the raw HTTP layer below src/http (it knows node:http and the
// logs, never the resource layer, the catalogue or storage).
export {
  createHttpServer,
  type HttpServerOptions,
  type ShelfmarkServer,
  type RequestHandler,
} from './create-server.ts';
export { DEFAULT_LIMITS, type ServerLimits } from './limits.ts';
export {
  parseRawHead,
  splitRequestLine,
  rebuildRequestLine,
  REQUEST_LINE_MAX,
  type RawHead,
} from './raw-head.ts';
export { errorDocument } from './rejection.ts';
export { bindKeptSocket, BindError, listenOnInherited, type KeptSocket } from './kept-socket.ts';

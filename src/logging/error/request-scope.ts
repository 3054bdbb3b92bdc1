// The request being served, for entries written far from it: a Node process warning raised
// while a request's code runs gets that request's [client IP:PORT] and Referer, as httpd ties
// a module's warning to its request. The server's handler runs each request inside run().
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';

const scope = new AsyncLocalStorage<IncomingMessage>();

/** Runs `fn` (the request's handler) with `raw` as the current request. */
export function runInRequest<T>(raw: IncomingMessage, fn: () => T): T {
  return scope.run(raw, fn);
}

/** The request whose code is running now, if any. */
export function currentRequest(): IncomingMessage | undefined {
  return scope.getStore();
}

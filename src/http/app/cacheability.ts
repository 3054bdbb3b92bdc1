// What every response says about caching (ADR 0051), decided once, in the onSend hook, for
// every answer of the layer: fresh, from the representation cache, 304, error or plain route.
//   - GET/HEAD of a resource, 2xx/3xx, asked without credentials: `no-cache` — any cache may
//     keep it but must revalidate (the ETag / Last-Modified make that a cheap 304), so a
//     write is visible on the next request;
//   - the same asked WITH credentials (Authorization, or the session cookie): `private,
//     no-cache` — the page shows who is logged in, staff see forms carrying their CSRF token;
//   - every resource response also `Vary: Cookie, Authorization`: which answer (a 200 with the
//     viewer's name, a 403, `{"angemeldet":false}`) depends on them, so a shared cache keyed by
//     URL must not hand one viewer's answer to another;
//   - errors (≥ 400), unsafe methods and OPTIONS: `no-store` — about this request only;
//   - a plain route that states its own Cache-Control (static files, /up) keeps it.
import type { HeaderSource, HeaderTarget } from './header-target.ts';
import type { RequestState } from './request-state.ts';
import { addVary } from './layer.ts';

export const PUBLIC_REVALIDATE = 'no-cache';
export const PRIVATE_REVALIDATE = 'private, no-cache';
export const NOT_STORED = 'no-store';
/** What a resource's answer depends on besides the URL, for every response of a resource. */
export const VIEWER_HEADERS = ['Cookie', 'Authorization'] as const;

/** The request carries credentials: Basic/Bearer, or a session cookie (valid or not). */
export function carriesCredentials(state: RequestState, request: HeaderSource): boolean {
  if (request.headers.authorization !== undefined) return true;
  const auth = state.layer.auth;
  if (auth !== undefined && request.cookies?.[auth.cookies.name] !== undefined) return true;
  return state.viewerKnown;
}

export function cacheControlFor(method: string, status: number, personal: boolean): string {
  if ((method !== 'GET' && method !== 'HEAD') || status >= 400) return NOT_STORED;
  return personal ? PRIVATE_REVALIDATE : PUBLIC_REVALIDATE;
}

/** onSend: Cache-Control (unless a plain route set one) and, for resources, Vary. */
export function setCacheability(state: RequestState, request: HeaderSource, reply: HeaderTarget): void {
  const resource = state.resolved.kind === 'resource';
  if (resource) for (const name of VIEWER_HEADERS) addVary(reply, name);
  if (reply.hasHeader('Cache-Control')) return;
  const method = state.methodOverride ?? request.method;
  reply.header(
    'Cache-Control',
    cacheControlFor(method, reply.statusCode, carriesCredentials(state, request)),
  );
}

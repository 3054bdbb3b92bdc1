// CORS for the public read API (ADR 0056): a browser app on any origin may GET/HEAD every
// resource's JSON (or XML, HTML) — without credentials. `Access-Control-Allow-Origin: *` never
// lets a browser read a response to a request that carried cookies or Basic credentials
// (Fetch standard: `*` and credentials mode "include" fail together), so what another origin
// can read is exactly what an anonymous client gets. Unsafe methods get no CORS headers: their
// preflight fails, and a simple cross-origin form POST still meets the CSRF check.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CORS_ALLOW_METHODS = 'GET, HEAD';
/** Beyond the CORS-safelisted request headers: the validators a client revalidates with. */
export const CORS_ALLOW_HEADERS = 'Accept, Accept-Language, If-None-Match, If-Modified-Since';
/** Beyond the safelisted response headers: validators and links a client needs. */
export const CORS_EXPOSE_HEADERS = 'ETag, Link, Content-Location, Location';
export const CORS_MAX_AGE = '600';

const READ = new Set(['GET', 'HEAD']);

/** A CORS preflight for a read: 204 with what may follow. False: not a preflight we allow. */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply): boolean {
  const origin = request.headers.origin;
  const wanted = request.headers['access-control-request-method'];
  if (origin === undefined || typeof wanted !== 'string' || !READ.has(wanted.toUpperCase())) return false;
  reply
    .header('Access-Control-Allow-Origin', '*')
    .header('Access-Control-Allow-Methods', CORS_ALLOW_METHODS)
    .header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
    .header('Access-Control-Max-Age', CORS_MAX_AGE);
  return true;
}

/** onSend: every read of a resource may be read by any origin (no credentials). */
export function setCorsHeaders(method: string, resource: boolean, reply: FastifyReply): void {
  if (!resource || !READ.has(method)) return;
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
}

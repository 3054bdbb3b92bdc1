// CORS (ADR 0056). Public reads from any origin without credentials (`*`: a browser never lets a
// credentialed request read it, so other origins see what anonymous clients get). Configured
// origins (`SHELFMARK_CORS_ORIGINS`) get their origin echoed with credentials, every method, and
// the CSRF origin check accepts them; every resource response then says `Vary: Origin`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from './layer.ts';
import type { HeaderSource, HeaderTarget } from './layer.ts';

export const CORS_READ_METHODS = 'GET, HEAD';
export const CORS_ALL_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Beyond the CORS-safelisted request headers: the validators a client revalidates with. */
export const CORS_ALLOW_HEADERS = 'Accept, Accept-Language, If-None-Match, If-Modified-Since';
/** What a configured origin may send besides: bodies, preconditions, credentials, the token. */
export const CORS_WRITE_HEADERS = 'Content-Type, If-Match, If-Unmodified-Since, Authorization, X-CSRF-Token';
/** Beyond the safelisted response headers: validators and links a client needs. */
export const CORS_EXPOSE_HEADERS = 'ETag, Link, Content-Location, Location';
export const CORS_MAX_AGE = '600';

const READ = new Set(['GET', 'HEAD']);

export interface CorsPolicy {
  /** A CORS preflight: 204 headers for what may follow. False: not a preflight we allow. */
  answerPreflight(request: FastifyRequest, reply: FastifyReply): boolean;
  /** onSend: the CORS headers of a resource's response to `method`. */
  setHeaders(method: string, resource: boolean, request: HeaderSource, reply: HeaderTarget): void;
}

/** `credentialed`: the configured origins (`https://app.example`), exact. */
export function corsPolicy(credentialed: readonly string[]): CorsPolicy {
  const trusted = new Set(credentialed);
  const trustedOrigin = (request: HeaderSource): string | undefined => {
    const origin = request.headers.origin;
    return origin !== undefined && trusted.has(origin) ? origin : undefined;
  };
  const echo = (reply: HeaderTarget, origin: string) => {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
  };
  const varyOnOrigin = (reply: HeaderTarget) => {
    if (trusted.size > 0) addVary(reply, 'Origin');
  };
  return {
    answerPreflight(request, reply) {
      const origin = request.headers.origin;
      const wanted = request.headers['access-control-request-method'];
      if (origin === undefined || typeof wanted !== 'string') return false;
      varyOnOrigin(reply);
      if (trusted.has(origin)) {
        echo(reply, origin);
        reply
          .header('Access-Control-Allow-Methods', CORS_ALL_METHODS)
          .header('Access-Control-Allow-Headers', `${CORS_ALLOW_HEADERS}, ${CORS_WRITE_HEADERS}`)
          .header('Access-Control-Max-Age', CORS_MAX_AGE);
        return true;
      }
      if (!READ.has(wanted.toUpperCase())) return false;
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Access-Control-Allow-Methods', CORS_READ_METHODS)
        .header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
        .header('Access-Control-Max-Age', CORS_MAX_AGE);
      return true;
    },
    setHeaders(method, resource, request, reply) {
      if (!resource) return;
      varyOnOrigin(reply);
      const origin = trustedOrigin(request);
      if (origin !== undefined) echo(reply, origin);
      else if (READ.has(method)) reply.header('access-control-allow-origin', '*');
      else return;
      reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    },
  };
}

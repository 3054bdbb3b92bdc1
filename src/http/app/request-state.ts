// What the layer remembers about each request, keyed by Node's IncomingMessage so it survives
// Fastify's rewriteUrl (which replaces raw.url with the internal URL).
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { UnsafeMethod } from '../resource/types.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';

export interface RequestState {
  /** The request target exactly as the client sent it (what the access log shows). */
  readonly originalUrl: string;
  readonly resolved: ResolvedUrl;
  /** Set by the method-override hook (`_method=PUT` in a POSTed form). */
  methodOverride?: UnsafeMethod;
}

const states = new WeakMap<IncomingMessage, RequestState>();

export function rememberRequest(raw: IncomingMessage, state: RequestState): void {
  states.set(raw, state);
}

export function requestState(raw: IncomingMessage): RequestState | undefined {
  return states.get(raw);
}

/** The URL the client sent, before base stripping and rewriting. */
export function originalUrl(raw: IncomingMessage): string {
  return states.get(raw)?.originalUrl ?? (raw as { originalUrl?: string }).originalUrl ?? raw.url ?? '';
}

/**
 * For the method-override hook (design §6): a POSTed form with `_method=PUT|DELETE` is
 * dispatched to that handler. Call it from a preHandler hook, after the body is parsed.
 */
export function overrideMethod(request: FastifyRequest, method: UnsafeMethod): void {
  if (request.method !== 'POST') throw new Error('only a POST can carry a method override');
  const state = states.get(request.raw);
  if (state) state.methodOverride = method;
}

/** The method the handler is chosen by: the override, or the request's own. */
export function effectiveMethod(request: FastifyRequest): string {
  return states.get(request.raw)?.methodOverride ?? request.method;
}

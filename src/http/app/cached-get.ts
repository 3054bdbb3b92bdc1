// GET/HEAD of a cacheable resource through the representation cache (ADR 0048): the database
// version is read first, before the handler touches the database; a stored rendering of that
// version is sent as it is, otherwise the handler runs and its 200 is stored for the next request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedRepresentation, RepresentationCache } from '../cache/index.ts';
import type { Handler, Outcome, Representation } from '../resource/types.ts';
import { prepareRepresentation, respond, sendPrepared, type RespondContext } from './respond.ts';
import { frontPassOf } from './cache-front.ts';
import type { RequestState } from './request-state.ts';

/**
 * Everything a representation's bytes and headers depend on besides the database: the
 * resource and its parameters, the URL form asked for, format and how it was chosen, language,
 * the public base, and who is asking (a signed-in user sees their name and, staff, forms with
 * their session's CSRF token: entries are per user and token, never shared with anonymous).
 */
export function cacheKey(resourceName: string, rc: RespondContext): string {
  const { ctx } = rc;
  const viewer = ctx.user
    ? `${ctx.user.id}:${ctx.user.role}:${ctx.user.username}:${ctx.csrfToken ?? ''}`
    : '';
  return [
    resourceName,
    ctx.path,
    ctx.query.toString(),
    rc.clientQuery.toString(),
    rc.suffix ?? '',
    ctx.format,
    rc.source,
    ctx.lang,
    ctx.links.absolute('/'),
    viewer,
  ].join('\u0000');
}

/**
 * A GET the front could answer next time (cache-front.ts): the onSend hook keeps its finished
 * response under the request's key, which the front computed when it passed the request on.
 * Only anonymous and Basic requests have one; a Basic one names its credential and address, so
 * what the handler showed that user stays theirs.
 */
function offerToFront(
  state: RequestState,
  key: string,
  version: string,
  prepared: CachedRepresentation,
): void {
  const pass = frontPassOf(state.raw);
  if (pass === undefined || state.raw.method !== 'GET') return;
  state.wireCapture = { requestKey: pass.requestKey, key, version, prepared };
}

/** The handler's 200 as prepared bytes and headers, or its other outcome (never kept). */
export async function renderedGet(
  handler: Handler,
  rc: RespondContext,
): Promise<CachedRepresentation | Outcome> {
  const outcome = await handler(rc.ctx);
  if (outcome.type !== 'representation' || (outcome.status ?? 200) !== 200) return outcome;
  return prepareRepresentation(outcome.representation as Representation<unknown>, rc);
}

/**
 * A GET's 200 as prepared bytes and headers — from the cache at the version read first, else
 * rendered by the handler and kept — or the handler's other outcome, which is never kept. The
 * full path (cachedGet) and the lean path (lean-get.ts) both get their answer here.
 */
export async function preparedGet(
  cache: RepresentationCache,
  state: RequestState,
  resourceName: string,
  handler: Handler,
  rc: RespondContext,
): Promise<CachedRepresentation | Outcome> {
  // Read once per request, before anything else reads: by the front if it saw the request,
  // else here, synchronously on SQLite while the connection is free (ADR 0066).
  const read = frontPassOf(state.raw)?.version ?? cache.currentVersion();
  const version = typeof read === 'string' ? read : await read;
  const key = cacheKey(resourceName, rc);
  const hit = cache.get(key, version);
  if (hit) {
    offerToFront(state, key, version, hit);
    return hit;
  }
  const answer = await renderedGet(handler, rc);
  if (isOutcome(answer)) return answer;
  cache.set(key, version, answer);
  offerToFront(state, key, version, answer);
  return answer;
}

/** A handler's outcome, or a prepared representation (which has no `type`). */
export function isOutcome(answer: CachedRepresentation | Outcome): answer is Outcome {
  return 'type' in answer;
}

export async function cachedGet(
  cache: RepresentationCache,
  state: RequestState,
  resourceName: string,
  handler: Handler,
  request: FastifyRequest,
  reply: FastifyReply,
  rc: RespondContext,
): Promise<FastifyReply> {
  const answer = await preparedGet(cache, state, resourceName, handler, rc);
  if (isOutcome(answer)) return respond(request, reply, answer, rc);
  return sendPrepared(request, reply, answer, rc.ctx.method);
}

// GET/HEAD of a cacheable resource through the representation cache (ADR 0048, 0088): the
// database's changes are read first, before the handler touches the database; a stored rendering
// still current is sent as it is, otherwise the handler runs and its 200 is stored for the next
// request with the subjects the resource declares it shows.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVERYTHING, type CachedRepresentation, type RepresentationCache } from '../cache/index.ts';
import type { Handler, Outcome, Representation, ResourceDefinition } from '../resource/types.ts';
import { prepareRepresentation, respond, sendPrepared, type RespondContext } from './respond.ts';
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
 * A keyed GET (one the first stage looked up, kept-response.ts): the finishing stage keeps its
 * response under the request's key. Only anonymous and Basic requests have one; a Basic one
 * names its credential and address, so what the handler showed that user stays theirs.
 */
function offerToKeep(state: RequestState, key: string, prepared: CachedRepresentation): void {
  if (state.kept !== undefined && state.raw.method === 'GET') state.keptCapture = { key, prepared };
}

/**
 * A GET's 200 as prepared bytes and headers — from the cache at the version read first, else
 * rendered by the handler and kept — or the handler's other outcome, which is never kept.
 */
async function preparedGet(
  cache: RepresentationCache,
  state: RequestState,
  resource: ResourceDefinition,
  handler: Handler,
  rc: RespondContext,
): Promise<CachedRepresentation | Outcome> {
  // Read once per request, before anything else reads: by the first stage if the request has a
  // key (and the read succeeded), else here, synchronously on SQLite while the connection is
  // free (ADR 0066).
  const read = state.kept?.version ?? cache.currentVersion();
  const version = typeof read === 'string' ? read : await read;
  const key = cacheKey(resource.name, rc);
  const hit = cache.get(key, version, state.layer.clock());
  if (hit) {
    offerToKeep(state, key, hit);
    return hit;
  }
  const outcome = await handler(rc.ctx);
  if (outcome.type !== 'representation' || (outcome.status ?? 200) !== 200) return outcome;
  const representation = outcome.representation as Representation<unknown>;
  const prepared = prepareRepresentation(representation, rc);
  // What it shows, declared once by the resource (ADR 0088): only a change of one of those drops it.
  const dependsOn = resource.dependsOn?.(representation.model as never, rc.ctx) ?? EVERYTHING;
  cache.set(key, version, prepared, dependsOn);
  offerToKeep(state, key, prepared);
  return prepared;
}

/** A handler's outcome, or a prepared representation (which has no `type`). */
function isOutcome(answer: CachedRepresentation | Outcome): answer is Outcome {
  return 'type' in answer;
}

export async function cachedGet(
  cache: RepresentationCache,
  state: RequestState,
  resource: ResourceDefinition,
  handler: Handler,
  request: FastifyRequest,
  reply: FastifyReply,
  rc: RespondContext,
): Promise<FastifyReply> {
  const answer = await preparedGet(cache, state, resource, handler, rc);
  if (isOutcome(answer)) return respond(request, reply, answer, rc);
  return sendPrepared(request, reply, answer, rc.ctx.method);
}

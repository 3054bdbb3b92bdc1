// The one route handler every resource path gets: method rules, 406, the handler (through the
// representation cache for a cacheable GET), the outcome.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type {
  ExtraFormat,
  Handler,
  HandlerMethod,
  Links,
  Outcome,
  Representation,
  RequestContext,
  ResourceDefinition,
} from '../resource/types.ts';
import { FORMATS, type QueryParams } from '../resource/types.ts';
import { HttpError } from '../errors/http-error.ts';
import { ACCEPT_PATCH } from '../body/index.ts';
import { EVERYTHING, type CachedRepresentation, type RepresentationCache } from '../cache/index.ts';
import { mediaTypeOf } from '../negotiation/format.ts';
import { withSuffix } from '../rewrite/rewrite.ts';
import { prepareRepresentation, respond, sendPrepared, type RespondContext } from './respond.ts';
import type { Layer } from './layer.ts';
import type { RequestState } from './request-state.ts';
import { buildContext } from './context.ts';

/** Every method Fastify routes is routed to the resource, so an unknown one gets 405, not 404. */
export const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'];

/** The Allow value: the resource's methods, or of those the ones `methodsAt` names for a URL. */
export function allowOf(resource: ResourceDefinition, at?: readonly HandlerMethod[]): string {
  const m = at
    ? Object.fromEntries(at.filter((name) => resource.methods[name]).map((name) => [name, true]))
    : resource.methods;
  return [
    m.GET && 'GET',
    m.GET && 'HEAD',
    m.POST && 'POST',
    m.PUT && 'PUT',
    m.PATCH && 'PATCH',
    m.DELETE && 'DELETE',
    'OPTIONS',
  ]
    .filter(Boolean)
    .join(', ');
}

function handlerFor(
  resource: ResourceDefinition,
  method: string,
  at: readonly HandlerMethod[] | undefined,
): Handler | undefined {
  const name = method === 'HEAD' ? 'GET' : method;
  if (at && !at.includes(name as HandlerMethod)) return undefined;
  return Object.hasOwn(resource.methods, name) ? resource.methods[name as HandlerMethod] : undefined;
}

const LABELS = { html: 'HTML', xml: 'XML', json: 'JSON', ris: 'RIS', bib: 'BibTeX', atom: 'Atom' } as const;

function notAcceptable(
  links: Links,
  path: string,
  query: QueryParams,
  extras: readonly ExtraFormat[] = [],
): HttpError {
  const qs = query.toString();
  const available = [...FORMATS, ...extras].map((format) => ({
    type: mediaTypeOf(format),
    label: LABELS[format],
    url: links.absolute(withSuffix(qs ? `${path}?${qs}` : path, format)),
  }));
  return new HttpError('SHELFMARK_NOT_ACCEPTABLE', {
    detail: 'None of the available representations is acceptable; pick one of these URLs.',
    extensions: { available },
  });
}

/**
 * Everything a representation's bytes and headers depend on besides the database: the
 * resource and its parameters, the URL form asked for, format and how it was chosen, language,
 * the public base, and who is asking (a signed-in user sees their name and, staff, forms with
 * their session's CSRF token: entries are per user and token, never shared with anonymous).
 */
function cacheKey(resourceName: string, rc: RespondContext): string {
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
 * A cacheable GET's 200 through the representation cache (ADR 0048, 0088): from the cache at
 * the version read first, else rendered by the handler and stored with the subjects the
 * resource declares it shows; or the handler's other outcome, which is never stored. A keyed
 * GET's rendering (kept-response.ts) is offered to the finishing stage to keep.
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
  let prepared = cache.get(key, version, state.layer.clock());
  if (!prepared) {
    const outcome = await handler(rc.ctx);
    if (outcome.type !== 'representation' || (outcome.status ?? 200) !== 200) return outcome;
    const representation = outcome.representation as Representation<unknown>;
    prepared = prepareRepresentation(representation, rc);
    const dependsOn = resource.dependsOn?.(representation.model as never, rc.ctx) ?? EVERYTHING;
    cache.set(key, version, prepared, dependsOn);
  }
  if (state.kept !== undefined && state.raw.method === 'GET') state.keptCapture = { key, prepared };
  return prepared;
}

export function dispatcher(layer: Layer, resource: ResourceDefinition): RouteHandlerMethod {
  const allowAll = allowOf(resource);
  return async function dispatch(request: FastifyRequest, reply: FastifyReply) {
    const state = request.state;
    const resolved = state.resolved;
    if (resolved.kind !== 'resource') throw new HttpError('SHELFMARK_NOT_FOUND');
    const at = resource.methodsAt?.(resolved.query);
    const allow = at ? allowOf(resource, at) : allowAll;
    const method = state.methodOverride ?? request.method;
    if (method === 'OPTIONS') {
      // A browser's CORS preflight (cors.ts): reads from anywhere, more from configured origins.
      if (resource.methods.GET !== undefined) layer.cors.answerPreflight(request, reply);
      reply.code(204).header('Allow', allow);
      // For a resource that takes PATCH, what it takes (RFC 5789 §3.1).
      if (resource.methods.PATCH && (!at || at.includes('PATCH'))) reply.header('Accept-Patch', ACCEPT_PATCH);
      return reply.send();
    }
    const handler = handlerFor(resource, method, at);
    if (!handler) {
      throw new HttpError('SHELFMARK_METHOD_NOT_ALLOWED', {
        detail: `${method} is not allowed here.`,
        headers: { Allow: allow },
      });
    }
    // The extra formats are forms to read (a citation, a feed): a write answers in the three.
    const extras = method === 'GET' || method === 'HEAD' ? resource.formats : undefined;
    const choice = state.choiceFor(extras);
    if (choice === null) throw new HttpError('SHELFMARK_NOT_FOUND');
    if (!choice.ok) throw notAcceptable(state.links, resolved.path, resolved.clientQuery, extras);
    const ctx = await buildContext(
      state,
      request,
      reply,
      resolved,
      method as RequestContext['method'],
      choice,
    );
    // What an authenticated client sees (its name in the page header) is for it alone: the
    // onSend hook makes it `private` (cacheability.ts) — also when options.authenticate found
    // the user without any header the hook could see.
    if (ctx.user) state.viewerKnown = true;
    const rc = { ctx, source: choice.source, clientQuery: resolved.clientQuery, suffix: resolved.suffix };
    if (layer.cache && resource.cacheable === true && (method === 'GET' || method === 'HEAD')) {
      const answer = await preparedGet(layer.cache, state, resource, handler, rc);
      // A handler's outcome has a `type`, a prepared representation none.
      if (!('type' in answer)) return sendPrepared(request, reply, answer, method);
      return respond(request, reply, answer, rc);
    }
    return respond(request, reply, await handler(ctx), rc);
  };
}

// The one route handler every resource path gets: method rules, 406, the handler, the outcome.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type {
  ExtraFormat,
  Handler,
  HandlerMethod,
  Links,
  RequestContext,
  ResourceDefinition,
} from '../resource/types.ts';
import { FORMATS } from '../resource/types.ts';
import { HttpError } from '../errors/http-error.ts';
import { ACCEPT_PATCH } from '../body/index.ts';
import { mediaTypeOf } from '../negotiation/format.ts';
import { withSuffix } from '../rewrite/rewrite.ts';
import { respond } from './respond.ts';
import { cachedGet } from './cached-get.ts';
import type { Layer } from './layer.ts';
import { buildContext, negotiated } from './context.ts';

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

/** OPTIONS: Allow, and for a resource that takes PATCH what it takes (RFC 5789 §3.1). */
function options(
  resource: ResourceDefinition,
  allow: string,
  reply: FastifyReply,
  at: readonly HandlerMethod[] | undefined,
): FastifyReply {
  reply.code(204).header('Allow', allow);
  if (resource.methods.PATCH && (!at || at.includes('PATCH'))) reply.header('Accept-Patch', ACCEPT_PATCH);
  return reply.send();
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
  query: URLSearchParams,
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
      return options(resource, allow, reply, at);
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
      negotiated(state, resolved, method as RequestContext['method'], choice),
    );
    // What an authenticated client sees (its name in the page header) is for it alone: the
    // onSend hook makes it `private` (cacheability.ts) — also when options.authenticate found
    // the user without any header the hook could see.
    if (ctx.user) state.viewerKnown = true;
    const rc = { ctx, source: choice.source, clientQuery: resolved.clientQuery, suffix: resolved.suffix };
    if (layer.cache && resource.cacheable === true && (method === 'GET' || method === 'HEAD')) {
      return cachedGet(layer.cache, state, resource, handler, request, reply, rc);
    }
    return respond(request, reply, await handler(ctx), rc);
  };
}

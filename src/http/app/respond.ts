// Turns a handler's Outcome into the response: headers, validators, 304, HEAD (design §5, §6).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Outcome, Representation, RequestContext } from '../resource/types.ts';
import { CONTENT_TYPES, type FormatSource } from '../negotiation/format.ts';
import { etagOf, notModified } from '../conditional/conditional.ts';
import { renderRepresentation } from '../representation/render.ts';
import { withSuffix } from '../rewrite/rewrite.ts';
import { isCanonicalRequest } from './canonical.ts';
import { linkHeader, sendBody, setVary, type LinkValue } from './layer.ts';

export interface RespondContext {
  readonly ctx: RequestContext;
  readonly source: FormatSource;
  readonly clientQuery: URLSearchParams;
  /** The suffix the request carried: a moved resource keeps it in the redirect. */
  readonly suffix: string | null;
}

function single(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function linkValues(rep: Representation<unknown>, rc: RespondContext): LinkValue[] {
  const { ctx } = rc;
  const links: LinkValue[] = [];
  if (!isCanonicalRequest(ctx.path, rc.clientQuery, rep.canonicalPath)) {
    links.push({ url: ctx.links.absolute(rep.canonicalPath), rel: 'canonical' });
  }
  if (rep.schema !== undefined && ctx.format !== 'html') {
    links.push({
      url: ctx.links.absolute(`/schema/${rep.schema}.${ctx.format === 'xml' ? 'xsd' : 'json'}`),
      rel: 'describedby',
    });
  }
  for (const link of rep.links ?? []) links.push({ url: ctx.links.absolute(link.path), rel: link.rel });
  return links;
}

function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Extract<Outcome, { type: 'representation' }>,
  rc: RespondContext,
): FastifyReply {
  const rep = outcome.representation as Representation<unknown>;
  const { ctx } = rc;
  const body = renderRepresentation(rep, ctx);
  const etag = etagOf(body);
  const status = outcome.status ?? 200;
  reply.header('ETag', etag);
  if (rep.lastModified) reply.header('Last-Modified', rep.lastModified.toUTCString());
  setVary(reply, rc.source, ctx.format);
  if (rc.source === 'accept')
    reply.header('Content-Location', ctx.links.relative(withSuffix(rep.canonicalPath, ctx.format)));
  const links = linkValues(rep, rc);
  if (links.length > 0) reply.header('Link', linkHeader(links));
  if (status === 201 && outcome.location !== undefined)
    reply.header('Location', ctx.links.absolute(outcome.location));
  const conditional = {
    ifNoneMatch: single(request, 'if-none-match'),
    ifModifiedSince: single(request, 'if-modified-since'),
  };
  if (
    (ctx.method === 'GET' || ctx.method === 'HEAD') &&
    status === 200 &&
    notModified(conditional, etag, rep.lastModified)
  ) {
    return reply.code(304).send();
  }
  reply.code(status).header('Content-Type', CONTENT_TYPES[ctx.format]);
  return sendBody(request, reply, body);
}

export function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome,
  rc: RespondContext,
): FastifyReply {
  switch (outcome.type) {
    case 'representation':
      return sendRepresentation(request, reply, outcome, rc);
    case 'redirect': {
      // A moved resource keeps the format the client chose by suffix; a 303 names another resource.
      const keepSuffix = rc.suffix !== null && outcome.status !== 303;
      const path = keepSuffix ? withSuffix(outcome.path, rc.ctx.format) : outcome.path;
      return reply.code(outcome.status).header('Location', rc.ctx.links.absolute(path)).send();
    }
    case 'empty':
      return reply.code(204).send();
  }
}

// Turns a handler's Outcome into the response: headers, validators, 304, HEAD (docs/representations.md, docs/methods.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Outcome, QueryParams, Representation, RequestContext } from '../resource/types.ts';
import { CONTENT_TYPES, type FormatSource } from '../negotiation/format.ts';
import { etagOf, lastModifiedToSend, notModified } from '../conditional/conditional.ts';
import { renderRepresentation } from '../representation/render.ts';
import { utf8 } from '../representation/utf8.ts';
import { withSuffix } from '../rewrite/rewrite.ts';
import { headerUrl } from '../links/header-url.ts';
import {
  addVary,
  headerValue,
  linkHeader,
  sendBody,
  varyOf,
  type HeaderSource,
  type HeaderTarget,
  type LinkValue,
} from './layer.ts';
import {
  chooseEncoding,
  compress,
  encodedEtag,
  isCompressible,
  MIN_COMPRESS_BYTES,
} from '../compression/index.ts';
import type { CachedRepresentation } from '../cache/index.ts';
import type { RequestState } from './request-state.ts';

export interface RespondContext {
  readonly ctx: RequestContext;
  readonly source: FormatSource;
  readonly clientQuery: QueryParams;
  /** The suffix the request carried: a moved resource keeps it in the redirect. */
  readonly suffix: string | null;
}

/** `path?query` without ?format= and in a fixed parameter order: how URLs compare as canonical. */
function normalise(path: string, query: QueryParams): string {
  const params = [...query].filter(([name]) => name !== 'format');
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const qs = new URLSearchParams(params).toString();
  return qs ? `${path}?${qs}` : path;
}

function isCanonicalRequest(path: string, clientQuery: QueryParams, canonicalPath: string): boolean {
  const at = canonicalPath.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : canonicalPath.slice(at + 1));
  return (
    normalise(path, clientQuery) === normalise(at < 0 ? canonicalPath : canonicalPath.slice(0, at), query)
  );
}

function linkValues(rep: Representation<unknown>, rc: RespondContext): LinkValue[] {
  const { ctx } = rc;
  const links: LinkValue[] = [];
  if (!isCanonicalRequest(ctx.path, rc.clientQuery, rep.canonicalPath)) {
    links.push({ url: ctx.links.absolute(rep.canonicalPath), rel: 'canonical' });
  }
  if (rep.schema !== undefined && (ctx.format === 'xml' || ctx.format === 'json')) {
    links.push({
      url: ctx.links.absolute(`/schema/${rep.schema}.${ctx.format === 'xml' ? 'xsd' : 'json'}`),
      rel: 'describedby',
    });
  }
  for (const link of rep.links ?? [])
    links.push({ url: ctx.links.absolute(link.path), rel: link.rel, ...(link.type && { type: link.type }) });
  return links;
}

/** Renders a representation once into what a response (or a later one, from the cache) sends. */
export function prepareRepresentation(
  rep: Representation<unknown>,
  rc: RespondContext,
): CachedRepresentation {
  const { ctx } = rc;
  const body = utf8(renderRepresentation(rep, ctx));
  const headers: [string, string][] = [];
  const vary = varyOf(rc.source, ctx.format);
  if (vary !== undefined) headers.push(['Vary', vary]);
  // An HTML page is written in the negotiated language; XML and JSON carry data, not prose.
  if (ctx.format === 'html') headers.push(['Content-Language', ctx.lang]);
  if (rc.source === 'accept')
    headers.push([
      'Content-Location',
      headerUrl(ctx.links.relative(withSuffix(rep.canonicalPath, ctx.format))),
    ]);
  const links = linkValues(rep, rc);
  if (links.length > 0) headers.push(['Link', linkHeader(links)]);
  if (rep.robots !== undefined) headers.push(['X-Robots-Tag', rep.robots]);
  return {
    body,
    etag: etagOf(body),
    lastModified: rep.lastModified,
    contentType: CONTENT_TYPES[ctx.format],
    headers,
    compressed: {},
    expiresAt: rep.freshUntil?.getTime(),
  };
}

/**
 * The coding a body uses (ADR 0014), or null: a text body of some size whose client accepts
 * brotli or gzip. Such a response varies by Accept-Encoding whichever is chosen.
 */
export function codingFor(
  request: HeaderSource,
  reply: HeaderTarget,
  size: number,
  type: string | undefined,
) {
  if (size < MIN_COMPRESS_BYTES || !isCompressible(type)) return null;
  addVary(reply, 'Accept-Encoding');
  return chooseEncoding(headerValue(request.headers, 'accept-encoding'));
}

/**
 * A prepared representation's headers, set on `reply` (validators, its own headers, the type
 * and coding), and what goes with them: the status and the bytes, or no body for a 304. `now`
 * is the layer's clock.
 */
function preparedResponse(
  request: HeaderSource,
  reply: HeaderTarget,
  prepared: CachedRepresentation,
  method: string,
  status: number,
  now: number,
): { readonly status: number; readonly body: Buffer | undefined } {
  for (const [name, value] of prepared.headers) reply.header(name, value);
  // Names as Fastify keeps them (lower case): it lower-cases every name, a new string otherwise.
  const coding = codingFor(request, reply, prepared.body.byteLength, prepared.contentType);
  // Each coding its own tag, so no cache mixes the variants; comparisons ignore the suffix.
  reply.header('etag', coding ? encodedEtag(prepared.etag, coding) : prepared.etag);
  // Sent once its second is over (ADR 0024): a second write within it would carry the same date.
  const lastModified = lastModifiedToSend(prepared.lastModified, now);
  if (lastModified) reply.header('last-modified', lastModified.toUTCString());
  const conditional = {
    ifNoneMatch: headerValue(request.headers, 'if-none-match'),
    ifModifiedSince: headerValue(request.headers, 'if-modified-since'),
  };
  if (
    (method === 'GET' || method === 'HEAD') &&
    status === 200 &&
    notModified(conditional, prepared.etag, prepared.lastModified, now)
  ) {
    return { status: 304, body: undefined };
  }
  reply.header('content-type', prepared.contentType);
  if (coding === null) return { status, body: prepared.body };
  // Compressed once per cached entry and coding; %b then counts these bytes (what is sent).
  const memo = prepared.compressed;
  const body = memo?.[coding] ?? compress(prepared.body, coding);
  if (memo) memo[coding] = body;
  reply.header('content-encoding', coding);
  return { status, body };
}

/** Sends a prepared representation: validators, its headers, then 304 or the body. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: CachedRepresentation,
  method: string = request.method,
  status = 200,
): FastifyReply {
  // The layer's clock; a request the layer never saw (none of its routes) has only the system's.
  const state = request.state as RequestState | null;
  const now = state?.layer.clock() ?? Date.now();
  const answer = preparedResponse(request, reply, prepared, method, status, now);
  if (state) state.bodyCoded = true;
  reply.code(answer.status);
  return answer.body === undefined ? reply.send() : sendBody(request, reply, answer.body);
}

/**
 * A fixed body (a schema, a stylesheet, an image) as a prepared representation: strong ETag,
 * 304, HEAD and compression as for resources. Prepare it once to compress it once per coding.
 */
export function prepareFixed(
  text: string,
  contentType: string,
  headers: readonly (readonly [string, string])[] = [],
): CachedRepresentation {
  const body = Buffer.from(text);
  return { body, etag: etagOf(body), lastModified: undefined, contentType, headers, compressed: {} };
}

export function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome,
  rc: RespondContext,
): FastifyReply {
  switch (outcome.type) {
    case 'representation': {
      const prepared = prepareRepresentation(outcome.representation as Representation<unknown>, rc);
      const status = outcome.status ?? 200;
      if (status === 201 && outcome.location !== undefined)
        reply.header('Location', headerUrl(rc.ctx.links.absolute(outcome.location)));
      return sendPrepared(request, reply, prepared, rc.ctx.method, status);
    }
    case 'redirect': {
      // A moved resource keeps the format the client chose by suffix; a 303 names another resource.
      const keepSuffix = rc.suffix !== null && outcome.status !== 303;
      const path = keepSuffix ? withSuffix(outcome.path, rc.ctx.format) : outcome.path;
      return reply
        .code(outcome.status)
        .header(
          'Location',
          headerUrl(outcome.relative ? rc.ctx.links.relative(path) : rc.ctx.links.absolute(path)),
        )
        .send();
    }
    case 'empty':
      return reply.code(204).send();
  }
}

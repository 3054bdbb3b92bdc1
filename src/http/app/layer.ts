// The configuration every part of the running layer needs, resolved once at start-up.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { headerUrl } from '../links/header-url.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Format, Principal } from '../resource/types.ts';
import type { FormatSource } from '../negotiation/format.ts';
import type { PublicBase, TrustFunction } from '../links/links.ts';
import type { ErrorPage } from '../errors/error-page.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';
import type { LayerAuth } from './auth.ts';
import type { RepresentationCache } from '../cache/index.ts';
import type { ErrorLog } from '../../logging/index.ts';
import type { RefusalLog } from './refusal-log.ts';
import type { CorsPolicy } from './cors.ts';

export interface Layer {
  readonly base: PublicBase;
  readonly trust: TrustFunction;
  /** A request target resolved against the base path, rewrite table and passthrough prefixes. */
  readonly resolve: (rawUrl: string) => ResolvedUrl;
  readonly displayErrors: boolean;
  readonly errorPage: ErrorPage;
  readonly reportError: ((error: unknown, raw: IncomingMessage) => void) | undefined;
  readonly authenticate: ((request: FastifyRequest) => Promise<Principal | null>) | undefined;
  /** Sessions, Basic and CSRF (undefined without ResourceAppOptions.security). */
  readonly auth: LayerAuth | undefined;
  readonly requirePreconditions: boolean;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** Rendered GET representations of cacheable resources (ADR 0048); undefined: none kept. */
  readonly cache: RepresentationCache | undefined;
  /** The error log, for the layer's warnings (undefined: none written). */
  readonly errorLog: ErrorLog | undefined;
  /** Apache's entries for refused requests: failed log-ins, 403, 429, 404 (refusal-log.ts). */
  readonly refusals: RefusalLog;
  /** CORS headers and preflights (cors.ts). */
  readonly cors: CorsPolicy;
  /** A response slower than this (ms) is a warning; undefined: never. */
  readonly slowRequestMs: number | undefined;
  /** Milliseconds since the epoch: the one clock of every date the layer sends or compares. */
  readonly clock: () => number;
}

/** The parts of Fastify's reply the header functions use (their unit tests need no whole reply). */
export interface HeaderTarget {
  readonly statusCode: number;
  header(name: string, value: string): unknown;
  getHeader(name: string): HeaderValue;
  hasHeader(name: string): boolean;
  removeHeader(name: string): unknown;
  getHeaders(): Record<string, HeaderValue>;
}
type HeaderValue = number | string | string[] | undefined;

/** The parts of Fastify's request the header functions read (cookies: @fastify/cookie's). */
export interface HeaderSource {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly cookies?: Record<string, string | undefined>;
}

/** A request header as one string: repeated fields joined with `, ` (RFC 9110 §5.3). */
export function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `Vary: Accept` when the Accept header chose the format; `Accept-Language` for every HTML body. */
export function varyOf(source: FormatSource, format: Format): string | undefined {
  const vary = [source === 'accept' && 'Accept', format === 'html' && 'Accept-Language'].filter(Boolean);
  return vary.length > 0 ? vary.join(', ') : undefined;
}

export interface LinkValue {
  readonly url: string;
  readonly rel: string;
  readonly type?: string;
}

export function linkHeader(links: readonly LinkValue[]): string {
  return links
    .map((l) => `<${headerUrl(l.url)}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ''}`)
    .join(', ');
}

/** Sends a body, or for HEAD only its length: Node would drop the bytes anyway. */
export function sendBody(request: FastifyRequest, reply: FastifyReply, body: string | Buffer): FastifyReply {
  if (request.method !== 'HEAD') return reply.send(body);
  reply.header(
    'Content-Length',
    String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  );
  return reply.send();
}

/** `name` as one of a field list's entries, any case: `(^|,) *name *(,|$)`, compiled once per name. */
const entryPatterns = new Map<string, RegExp>();
function entryPattern(name: string): RegExp {
  let pattern = entryPatterns.get(name);
  if (pattern === undefined) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    entryPatterns.set(name, (pattern = new RegExp(`(?:^|,)[ \\t]*${escaped}[ \\t]*(?:,|$)`, 'i')));
  }
  return pattern;
}

/**
 * Adds field names to the response's Vary, each once (other parts may have set Vary before);
 * nothing after `*`. Runs for every answer, so it tests the list instead of splitting it.
 */
export function addVary(reply: HeaderTarget, ...names: string[]): void {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (names.length === 0) return;
  if (text.trim() === '') {
    reply.header('vary', names.join(', '));
    return;
  }
  if (entryPattern('*').test(text)) return;
  const missing = names.filter((name) => !entryPattern(name).test(text)).join(', ');
  if (missing !== '') reply.header('vary', `${text}, ${missing}`);
}

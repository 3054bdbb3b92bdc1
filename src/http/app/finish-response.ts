// The finishing stage (the onSend hook of pipeline.ts), run for every answer of the layer —
// rendered, kept, refused, failed or from a plain route: the bodies sendPrepared did not
// compress, a keyed GET's response kept for the early exit, then the headers every response
// carries (docs/lifecycle.md, stage 9).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compress, encodedEtag } from '../compression/index.ts';
import { representationHeaders } from './kept-response.ts';
import { addVary, type HeaderSource, type HeaderTarget, type Layer } from './layer.ts';
import type { RequestState } from './request-state.ts';
import { codingFor } from './respond.ts';

/**
 * Browsers' limits (ADR 0054): everything from this origin only, no inline script or style, no
 * plugins, no <base>, no framing.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** One year; no includeSubDomains (other hosts are not ours). Only for an https base (ADR 0054). */
const HSTS = 'max-age=31536000';

/** What a resource's answer depends on besides the URL (ADR 0051). */
const VIEWER_HEADERS = ['Cookie', 'Authorization'] as const;

/**
 * Cache-Control (ADR 0051): `no-cache` for a GET/HEAD's 2xx/3xx, `private, no-cache` when it
 * was asked with credentials (or the handler saw a user), `no-store` for errors and unsafe
 * methods; a plain route's own value is kept. Every resource response varies by the viewer.
 */
function setCacheability(state: RequestState, request: HeaderSource, reply: HeaderTarget): void {
  if (state.resolved.kind === 'resource') addVary(reply, ...VIEWER_HEADERS);
  if (reply.hasHeader('cache-control')) return;
  const method = state.methodOverride ?? request.method;
  const auth = state.layer.auth;
  const personal =
    request.headers.authorization !== undefined ||
    (auth !== undefined && request.cookies?.[auth.cookies.name] !== undefined) ||
    state.viewerKnown;
  const value =
    (method !== 'GET' && method !== 'HEAD') || reply.statusCode >= 400
      ? 'no-store'
      : personal
        ? 'private, no-cache'
        : 'no-cache';
  reply.header('cache-control', value);
}

/**
 * Node refuses a header value with a character outside Latin-1 or a control character, in
 * writeHead, after every hook, where Fastify can only answer with its own body. So a bad value
 * is thrown here (a 500 problem, reported once), and the problem drops what Node would refuse.
 */
export class InvalidHeaderError extends Error {
  readonly headerName: string;
  constructor(headerName: string) {
    super(`Invalid character in the value of response header ${JSON.stringify(headerName)}`);
    this.name = 'InvalidHeaderError';
    this.headerName = headerName;
  }
}

// node:http's checkIsHttpToken and checkInvalidHeaderChar as plain expressions: its validators
// in a try/catch per header cost more than the rest of the hook (ADR 0066; the test holds them
// to Node's answers).
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether Node would write this header (name and every value) without throwing. */
export function headerWritable(name: string, value: unknown): boolean {
  if (!TOKEN.test(name)) return false;
  if (!Array.isArray(value)) return !INVALID_VALUE_CHAR.test(String(value));
  for (const one of value as unknown[]) if (INVALID_VALUE_CHAR.test(String(one))) return false;
  return true;
}

function unwritableHeaders(reply: HeaderTarget): string[] {
  const headers = reply.getHeaders();
  const bad: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !headerWritable(name, value)) bad.push(name);
  }
  return bad;
}

/** Before an error answer: drop the headers Node would refuse, so the problem itself goes out. */
export function dropUnwritableHeaders(reply: HeaderTarget): void {
  for (const name of unwritableHeaders(reply)) reply.removeHeader(name);
}

/**
 * The text bodies that did not come through sendPrepared (which compresses representations once
 * per cached entry): problems, error pages, an application's own routes (ADR 0014). Streams pass.
 */
function compressRest(
  state: RequestState,
  request: HeaderSource,
  reply: HeaderTarget,
  payload: unknown,
): unknown {
  if (state.bodyCoded || reply.hasHeader('content-encoding')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const size = typeof payload === 'string' ? payload.length : payload.byteLength;
  const type = reply.getHeader('Content-Type');
  const coding = codingFor(request, reply, size, typeof type === 'string' ? type : undefined);
  if (!coding) return payload;
  const etag = reply.getHeader('ETag');
  if (typeof etag === 'string') reply.header('ETag', encodedEtag(etag, coding));
  reply.header('Content-Encoding', coding);
  reply.removeHeader('Content-Length');
  return compress(payload, coding);
}

// Header names here are written as Fastify keeps them (lower case): it lower-cases every name it
// is given, and an already lower-case literal costs it no new string on every answer.
function finishHeaders(layer: Layer, state: RequestState, request: HeaderSource, reply: HeaderTarget): void {
  reply.header('x-content-type-options', 'nosniff');
  setCacheability(state, request, reply);
  if (!reply.hasHeader('content-security-policy'))
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-frame-options', 'DENY');
  // Search words are in our URLs; same-origin keeps the Referer the CSRF check falls back on.
  reply.header('referrer-policy', 'same-origin');
  if (layer.base.origin.startsWith('https:')) reply.header('strict-transport-security', HSTS);
  layer.cors.setHeaders(
    state.methodOverride ?? request.method,
    state.resolved.kind === 'resource',
    request,
    reply,
  );
  // GET and HEAD never change anything, so they never set a cookie (docs/methods.md).
  if (request.method === 'GET' || request.method === 'HEAD') reply.removeHeader('set-cookie');
  // Last: a header Node would refuse becomes a 500 problem here, not Fastify's default body.
  // A kept answer's headers are those of the answer that was kept, checked when it was: the
  // representation's as they were, then these, which depend only on what its key holds.
  if (state.keptAnswer) return;
  const [bad] = unwritableHeaders(reply);
  if (bad !== undefined) throw new InvalidHeaderError(bad);
}

/** The payload to write, after every header is set; throws InvalidHeaderError (→ 500). */
export function finishResponse(
  layer: Layer,
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  const sent = compressRest(state, request, reply, payload);
  const { kept, keptCapture } = state;
  // What the dispatcher set, taken before the headers every answer gets (which the early exit's
  // answers get here too), kept only once those are set without fault.
  const headers = kept && keptCapture ? representationHeaders(request, reply, sent) : undefined;
  finishHeaders(layer, state, request, reply);
  if (headers && layer.cache) {
    const { key, prepared } = keptCapture!;
    const { lastModified, expiresAt } = prepared;
    layer.cache.setWire(kept!.requestKey, key, kept!.version, {
      headers,
      payload: sent as Buffer,
      lastModified,
      expiresAt,
    });
  }
  return sent;
}

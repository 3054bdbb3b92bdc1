// Representation-cache hits answered before Fastify (ADR 0069). An anonymous or Basic GET or
// HEAD whose every answer-shaping field equals an earlier request's, at the same database
// version, gets the bytes and headers the full path sent that earlier request, without routing,
// hooks or the handler context. What the full path would have done with such a request cannot
// differ: the request key holds every request field the answer depends on, and a request
// carrying any field the key leaves out (a session, conditionals, a body …) takes the full path.
import { hash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { CachedRepresentation, RepresentationCache, WireResponse } from '../cache/index.ts';
import { lastModifiedToSend } from '../conditional/conditional.ts';
import type { TrustFunction } from '../links/links.ts';
import type { HeaderTarget } from './header-target.ts';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Fields the key leaves out whose presence may change the answer: a session, conditional and
 * partial requests (304, 412), a request body. Such a request always takes the full path.
 */
const FULL_PATH_ONLY = [
  'cookie',
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
  'if-range',
  'range',
  'content-length',
  'transfer-encoding',
  'expect',
] as const;

/** The request carries a field the key leaves out (FULL_PATH_ONLY): only the full path answers it. */
export function takesFullPath(headers: IncomingHttpHeaders): boolean {
  for (const name of FULL_PATH_ONLY) if (headers[name] !== undefined) return true;
  return false;
}

/**
 * Per process: the key holds a keyed hash of a Basic credential, never the credential — SHA-256
 * of a random secret and the header (building an HMAC object per request took 16 % of a Basic
 * answer's time; the tags are never shown, so nothing could be extended).
 */
const CREDENTIAL_SECRET = randomBytes(32).toString('base64');
const BASIC = /^basic /i;

/**
 * Who asks, for the key: nobody (''), or a Basic credential the full path verified for this
 * client address (and forwarded-for chain), which is as far as a log-in limit reaches (ADR 0069:
 * a client refused there must not find another address's answer). Undefined: another scheme.
 */
function askerOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return '';
  if (!BASIC.test(authorization)) return undefined;
  const tag = hash('sha256', CREDENTIAL_SECRET + authorization, 'base64url');
  return `${tag}\u0000${req.socket?.remoteAddress ?? ''}\u0000${String(req.headers['x-forwarded-for'] ?? '')}`;
}

/**
 * The request key of an anonymous or Basic-authenticated GET/HEAD, or undefined when the
 * request must take the full path. `url` is the target as the client sent it. It starts with
 * U+0001, which no rendering's key does (cached-get.ts: those start with the resource's name).
 */
export function requestKeyOf(req: IncomingMessage, url: string, trust: TrustFunction): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const h = req.headers;
  if (takesFullPath(h)) return undefined;
  const asker = askerOf(req);
  if (asker === undefined) return undefined;
  // Forwarded scheme and host shape the links only from a trusted proxy (links.ts requestBase):
  // the same fields from anybody else must not find a trusted proxy's answer.
  let forwarded = '';
  if (h['x-forwarded-proto'] !== undefined || h['x-forwarded-host'] !== undefined) {
    const peer = req.socket?.remoteAddress;
    if (peer !== undefined && trust(peer, 0))
      forwarded = `${String(h['x-forwarded-proto'])}\u0000${String(h['x-forwarded-host'])}`;
  }
  return `\u0001${url}\u0000${h.host ?? ''}\u0000${h.accept ?? ''}\u0000${h['accept-language'] ?? ''}\u0000${
    h['accept-encoding'] ?? ''
  }\u0000${h.origin ?? ''}\u0000${forwarded}\u0000${asker}`;
}

/** What the front found for a request it passed on: the version it read and the request's key. */
export interface FrontPass {
  /** The full path reads no other version. */
  readonly version: string;
  /** Where the full path keeps its answer for the next such request (keepForFront). */
  readonly requestKey: string;
}

const passed = new WeakMap<IncomingMessage, FrontPass>();

/**
 * The front's findings for a request, or undefined: the front did not pass it on with a key —
 * it must take the full path every time (a session, a conditional, a body …), or its version
 * read failed.
 */
export function frontPassOf(req: IncomingMessage): FrontPass | undefined {
  return passed.get(req);
}

function send(req: IncomingMessage, res: ServerResponse, wire: WireResponse, now: number): void {
  const dated = lastModifiedToSend(wire.lastModified, now) !== undefined;
  // Node reads the array and keeps no reference to it (no copy per response).
  res.writeHead(200, (dated ? wire.headersWithLastModified : wire.headers) as string[]);
  if (req.method === 'HEAD') res.end();
  else res.end(wire.payload);
}

/** Answers from the cache, or passes the request on (with the version it read) to `next`. */
function answerAt(
  cache: RepresentationCache,
  key: string,
  version: string,
  req: IncomingMessage,
  res: ServerResponse,
  next: RequestHandler,
): void {
  const now = Date.now();
  const wire = cache.getWire(key, version, now);
  if (wire) return send(req, res, wire, now);
  passed.set(req, { version, requestKey: key });
  next(req, res);
}

/** The application's request handler with cache hits answered in front of it. */
export function cacheFront(
  cache: RepresentationCache,
  trust: TrustFunction,
  next: RequestHandler,
): RequestHandler {
  return function front(req, res) {
    const key = requestKeyOf(req, req.url ?? '/', trust);
    if (key === undefined) return next(req, res);
    let read: Promise<string> | string;
    try {
      read = cache.currentVersion();
    } catch {
      return next(req, res); // the full path reads it again and answers the failure (503)
    }
    if (typeof read === 'string') return answerAt(cache, key, read, req, res, next);
    read.then(
      (version) => answerAt(cache, key, version, req, res, next),
      () => next(req, res),
    );
  };
}

/** What the full path needs to keep its answer for the front: set by cachedGet, read in onSend. */
export interface WireCapture {
  readonly requestKey: string;
  /** The rendering's key and version in the cache. */
  readonly key: string;
  readonly version: string;
  readonly prepared: CachedRepresentation;
}

/** Per response, not per request: Node writes them itself (Connection: close while stopping). */
const NOT_KEPT = new Set(['content-length', 'last-modified', 'date', 'connection', 'keep-alive']);

/**
 * onSend, after every header is set: keeps a 200 to an anonymous or Basic GET as the front will
 * send it again. `payload` is what Fastify is about to write (the body, or a compressed variant).
 */
export function keepForFront(
  cache: RepresentationCache,
  capture: WireCapture,
  reply: HeaderTarget,
  payload: unknown,
): void {
  if (reply.statusCode !== 200 || !Buffer.isBuffer(payload)) return;
  const headers: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || NOT_KEPT.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.push(name, v);
    else headers.push(name, String(value));
  }
  headers.push('content-length', String(payload.byteLength));
  const lastModified = capture.prepared.lastModified;
  // Where sendPrepared puts it: right after the ETag.
  const headersWithLastModified = [...headers];
  if (lastModified) {
    const at = headers.indexOf('etag');
    headersWithLastModified.splice(
      at < 0 ? headers.length : at + 2,
      0,
      'last-modified',
      lastModified.toUTCString(),
    );
  }
  const wire = {
    headers,
    headersWithLastModified,
    payload,
    lastModified,
    expiresAt: capture.prepared.expiresAt,
  };
  cache.setWire(capture.requestKey, capture.key, capture.version, wire);
}

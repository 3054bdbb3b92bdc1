// Kept responses, the pipeline's early exit (ADR 0071). An anonymous or Basic GET/HEAD whose
// every answer-shaping field equals an earlier request's, at the same database version, gets that
// request's representation headers and bytes in the first stage — no authentication, body or
// handler; `finish` and what follows run as for every answer. A request carrying a field the key
// leaves out (a session, conditionals, a body …) has no key and passes every stage.
import { hash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedRepresentation } from '../cache/index.ts';
import { lastModifiedToSend } from '../conditional/conditional.ts';
import type { TrustFunction } from '../links/links.ts';
import { sendBody, type Layer } from './layer.ts';
import type { RequestState } from './request-state.ts';

/**
 * Fields the key leaves out whose presence may change the answer: a session, conditional and
 * partial requests (304, 412), a request body. Such a request has no key.
 */
const NOT_KEYED = [
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

function carriesUnkeyedField(headers: IncomingHttpHeaders): boolean {
  for (const name of NOT_KEYED) if (headers[name] !== undefined) return true;
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
 * Who asks, for the key: nobody (''), or a Basic credential the dispatcher's stages verified for
 * this client address (and forwarded-for chain), which is as far as a log-in limit reaches (ADR
 * 0069: a client refused there must not find another address's answer). Undefined: another scheme.
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
 * request has none. `url` is the target as the client sent it. It starts with U+0001, which no
 * rendering's key does (cached-get.ts: those start with the resource's name).
 */
export function requestKeyOf(req: IncomingMessage, url: string, trust: TrustFunction): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const h = req.headers;
  if (carriesUnkeyedField(h)) return undefined;
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

/** The request key and the database version read for it: no later stage reads another version. */
export interface KeptLookup {
  readonly requestKey: string;
  readonly version: string;
}

/** What the dispatcher produced for a keyed GET, to be kept in the finishing stage (keepResponse). */
export interface KeptCapture {
  /** The rendering's key in the cache: the kept response goes when the rendering goes. */
  readonly key: string;
  readonly prepared: CachedRepresentation;
}

/**
 * The early exit, in the first stage: answers a keyed request from its kept response and returns
 * true, or records the version it read (state.kept) and returns false — the request goes on
 * through every stage. Only when who is asking shows in the request's headers: an
 * application's own `authenticate` may read any part of a request, no key could hold it.
 */
export function answeredFromKept(
  layer: Layer,
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean | Promise<boolean> {
  const cache = layer.cache;
  if (cache === undefined || layer.authenticate !== undefined || state.resolved.kind !== 'resource')
    return false;
  const requestKey = requestKeyOf(state.raw, state.originalUrl, layer.trust);
  if (requestKey === undefined) return false;
  const at = (version: string): boolean => {
    const now = layer.clock();
    const wire = cache.getWire(requestKey, version, now);
    if (wire) {
      for (const [name, value] of wire.headers) reply.header(name, value);
      const lastModified = lastModifiedToSend(wire.lastModified, now);
      if (lastModified) reply.header('last-modified', lastModified.toUTCString());
      state.keptAnswer = state.bodyCoded = true;
      sendBody(request, reply.code(200), wire.payload);
      return true;
    }
    state.kept = { requestKey, version };
    return false;
  };
  let read: Promise<string> | string;
  try {
    read = cache.currentVersion();
  } catch {
    return false; // the dispatcher reads it again and answers the failure (503)
  }
  if (typeof read === 'string') return at(read);
  return read.then(at, () => false);
}

/** Per response, not per representation: the finishing stage and Node write them each time. */
const NOT_KEPT = new Set(['content-length', 'last-modified', 'date', 'connection', 'keep-alive']);

/**
 * In the finishing stage, before the headers every answer gets: the headers of a 200 to a
 * keyed GET as the dispatcher set them, or undefined when there is nothing to keep.
 */
export function representationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): [string, string][] | undefined {
  if (request.method !== 'GET' || reply.statusCode !== 200 || !Buffer.isBuffer(payload)) return undefined;
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || NOT_KEPT.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else headers.push([name, String(value)]);
  }
  return headers;
}

// Validators and conditional GET (RFC 9110 §8.8, §13). Pure functions.
import { hash } from 'node:crypto';

/** A strong ETag from the exact body bytes, so each format and language gets its own. */
export function etagOf(body: string | Uint8Array): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** A compressed variant's tag names its coding (`"x-gzip"`, `"x-br"`; src/http/compression). */
const CODING_SUFFIX = /-(?:gzip|br)"$/;

/**
 * The tag without its coding suffix: the gzip, brotli and identity variants carry the same
 * content, so a client holding any of them has the current version (ADR 0014; Apache's
 * mod_deflate without this made every If-Match of a gzip client fail).
 */
function content(tag: string): string {
  return tag.replace(CODING_SUFFIX, '"');
}

function opaque(tag: string): string {
  return content(tag.startsWith('W/') ? tag.slice(2) : tag);
}

/**
 * If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any current
 * representation; a coding suffix is ignored (`"x-gzip"` matches `"x"`).
 */
export function noneMatch(ifNoneMatch: string, etag: string): boolean {
  const header = ifNoneMatch.trim();
  if (header === '*') return true;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === wanted);
}

/**
 * If-Match uses the strong comparison (for PUT/PATCH/DELETE, docs/methods.md): weak tags never
 * match; a coding suffix is ignored (the ETag a gzip client got names the same content).
 */
export function strongMatch(ifMatch: string, etag: string): boolean {
  const header = ifMatch.trim();
  if (header === '*') return true;
  if (etag.startsWith('W/')) return false;
  const wanted = content(etag);
  return header.split(',').some((candidate) => content(candidate.trim()) === wanted);
}

export interface ConditionalHeaders {
  readonly ifNoneMatch: string | undefined;
  readonly ifModifiedSince: string | undefined;
}

const second = (ms: number): number => Math.floor(ms / 1000);

/**
 * The Last-Modified to send, or undefined while its second is not over (ADR 0024): HTTP dates
 * have whole seconds, so a second write within the same second would carry the same date, and a
 * client holding it would get a wrong 304. Once the second is over, every later version is dated
 * in a later second. Until then the ETag (which always changes) is the only validator.
 */
export function lastModifiedToSend(lastModified: Date | undefined, now: number): Date | undefined {
  if (lastModified === undefined) return undefined;
  return second(lastModified.getTime()) < second(now) ? lastModified : undefined;
}

/**
 * True when a GET/HEAD may answer 304. If-Modified-Since counts only without If-None-Match, and
 * only for a version whose second is over at `now` (see lastModifiedToSend): a date the client
 * took from elsewhere must not match a version that may still be followed within its second.
 */
export function notModified(
  headers: ConditionalHeaders,
  etag: string,
  lastModified: Date | undefined,
  now: number = Date.now(),
): boolean {
  if (headers.ifNoneMatch !== undefined) return noneMatch(headers.ifNoneMatch, etag);
  if (headers.ifModifiedSince === undefined) return false;
  const sendable = lastModifiedToSend(lastModified, now);
  if (sendable === undefined) return false;
  const since = Date.parse(headers.ifModifiedSince);
  if (Number.isNaN(since)) return false;
  // HTTP dates have whole seconds; compare at that precision.
  return second(sendable.getTime()) <= second(since);
}

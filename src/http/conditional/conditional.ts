// Validators and conditional GET (RFC 9110 §8.8, §13). Pure functions.
import { createHash } from 'node:crypto';

/** A strong ETag from the exact body bytes, so each format and language gets its own. */
export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any current representation. */
export function noneMatch(ifNoneMatch: string, etag: string): boolean {
  const header = ifNoneMatch.trim();
  if (header === '*') return true;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === wanted);
}

/** If-Match uses the strong comparison (for PUT/DELETE, design §6): weak tags never match. */
export function strongMatch(ifMatch: string, etag: string): boolean {
  const header = ifMatch.trim();
  if (header === '*') return true;
  return header.split(',').some((candidate) => candidate.trim() === etag && !etag.startsWith('W/'));
}

export interface ConditionalHeaders {
  readonly ifNoneMatch: string | undefined;
  readonly ifModifiedSince: string | undefined;
}

/** True when a GET/HEAD may answer 304. If-Modified-Since counts only without If-None-Match. */
export function notModified(
  headers: ConditionalHeaders,
  etag: string,
  lastModified: Date | undefined,
): boolean {
  if (headers.ifNoneMatch !== undefined) return noneMatch(headers.ifNoneMatch, etag);
  if (headers.ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(headers.ifModifiedSince);
  if (Number.isNaN(since)) return false;
  // HTTP dates have whole seconds; compare at that precision.
  return Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

// Compressing text bodies (ADR 0014): which bodies, how hard, and the ETag of a compressed
// variant. Pure functions over node:zlib.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Encoding } from './accept-encoding.ts';

/** Below this a compressed body saves a few bytes for a zlib call: sent as it is. */
export const MIN_COMPRESS_BYTES = 512;

/**
 * Brotli quality 5 and gzip level 6 (zlib's default): measured on the list and person pages,
 * quality 5 is about gzip's speed and ~10 % smaller; brotli's default 11 is ~20× slower.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** Text media types (and SVG, XML/JSON suffixes, schemas): everything Shelfmark sends as text. */
export function isCompressible(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'image/svg+xml' ||
    type === 'application/javascript' ||
    type.endsWith('+json') ||
    type.endsWith('+xml')
  );
}

export function compress(body: string | Uint8Array, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: GZIP_LEVEL });
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  });
}

/**
 * The ETag of an encoded variant: `"tag-gzip"`, `"tag-br"` (as Apache's mod_deflate names it).
 * A different tag per encoding keeps caches from mixing the variants; the comparisons of
 * If-None-Match and If-Match ignore the suffix (src/http/conditional), because the variants
 * carry the same content.
 */
export function encodedEtag(etag: string, encoding: Encoding): string {
  const weak = etag.startsWith('W/');
  const opaque = weak ? etag.slice(2) : etag;
  return `${weak ? 'W/' : ''}${opaque.slice(0, -1)}-${encoding}"`;
}

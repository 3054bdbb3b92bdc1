// Reading the raw body: a byte limit enforced while streaming (413 before buffering more than
// the limit), and strict UTF-8 decoding (invalid bytes → 400 instead of silent U+FFFD).
import type { Readable } from 'node:stream';
import { HttpError } from '../errors/index.ts';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export function tooLarge(limit: number): HttpError {
  return new HttpError('SHELFMARK_BODY_TOO_LARGE', {
    detail: `The request body is larger than ${limit} bytes.`,
  });
}

export async function readBody(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      stream.destroy();
      throw tooLarge(limit);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes UTF-8 (a leading BOM is dropped); invalid byte sequences → 400. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError('SHELFMARK_BODY_MALFORMED', { detail: 'The request body is not valid UTF-8.' });
  }
}

// A rendered representation's bytes. `Buffer.from(text)` encodes a string V8 keeps in one byte
// per character with a vectorised routine, but one with a character beyond U+00FF (a title's
// `–`: a third of the benchmark's person pages) character by character: for a 5 KB page about
// 2.5 times the instructions of copying it as UTF-16 and converting that (callgrind, ADR 0101).
// The bytes are the same; a string with a lone surrogate, which the conversion refuses, takes
// `Buffer.from` (which writes U+FFFD for it).
import { transcode } from 'node:buffer';

// Never matches a one-byte string, which V8 knows without reading it.
const BEYOND_LATIN1 = /[^\0-\xff]/;

/** The UTF-8 bytes of `text`, exactly as `Buffer.from(text)` writes them. */
export function utf8(text: string): Buffer {
  if (BEYOND_LATIN1.test(text)) {
    try {
      return transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
    } catch {
      // A lone surrogate (asking `isWellFormed` first costs more than the conversion saves).
    }
  }
  return Buffer.from(text);
}

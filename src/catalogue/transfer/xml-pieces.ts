// An XML byte stream cut before each `<` (docs/decisions/0078-imports-refuse-what-they-cannot-read.md).
// In UTF-8 and in the single-byte encodings a `<` byte is always the character, never part of
// another, so each piece (a tag and the text after it) can be decoded on its own: bad bytes are
// pinned to the piece, and so to the record, they are in. A piece longer than the limit (a huge
// text node) keeps its first `max` bytes; the rest is counted (bytes, line breaks) and dropped,
// never held, so neither this nor the SAX parser behind it buffers more than `max` bytes of it.
// The encoding comes from the byte order mark and the XML declaration (`encodingOf`).
import { UnreadableFileError } from './unreadable.ts';

export interface XmlPiece {
  readonly bytes: Buffer;
  /** Bytes of the piece dropped after the first `max` (0: the piece is whole). */
  readonly skipped: number;
  /** Line breaks among the dropped bytes (the lines the parser did not see). */
  readonly skippedLines: number;
}

const LT = 0x3c;
const LF = 0x0a;

export function lineBreaks(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) n += 1;
  return n;
}

/** The pieces, in arrays (those that end in one chunk of the input: one await per chunk, not per piece). */
export async function* xmlPieces(
  input: AsyncIterable<Buffer | string>,
  max: number,
): AsyncGenerator<XmlPiece[]> {
  let parts: Buffer[] = [];
  let size = 0;
  let skipped = 0;
  let skippedLines = 0;
  const add = (bytes: Buffer) => {
    const room = max - size;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
    if (kept.length > 0) {
      parts.push(kept);
      size += kept.length;
    }
    if (kept.length < bytes.length) {
      const rest = bytes.subarray(kept.length);
      skipped += rest.length;
      skippedLines += lineBreaks(rest);
    }
  };
  const take = (): XmlPiece => {
    const piece = {
      bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size),
      skipped,
      skippedLines,
    };
    parts = [];
    size = 0;
    skipped = 0;
    skippedLines = 0;
    return piece;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const done: XmlPiece[] = [];
    let from = 0;
    for (let lt = bytes.indexOf(LT); lt >= 0; lt = bytes.indexOf(LT, lt + 1)) {
      add(bytes.subarray(from, lt));
      if (size > 0) done.push(take());
      from = lt;
    }
    add(bytes.subarray(from));
    if (done.length > 0) yield done;
  }
  if (size > 0) yield [take()];
}

/** Encodings whose bytes below 0x80 are not always ASCII characters: a `<` byte may be part of another. */
const NOT_ASCII_SAFE = new Set([
  'utf-16le',
  'utf-16be',
  'iso-2022-jp',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'gbk',
  'gb18030',
  'big5',
  'replacement',
]);

const READS = 'UTF-8 and the single-byte encodings such as ISO-8859-1, ISO-8859-15 and windows-1252';

/**
 * The encoding of a file whose first piece is `head` (after a UTF-8 byte order mark, `bom`): the
 * XML declaration's, else UTF-8 (XML's default). ISO-8859-1 is decoded as windows-1252, as the
 * Encoding Standard (and so every browser) does: the same characters, and printable ones
 * (€, „, …) instead of C1 control codes for bytes 0x80–0x9f. UTF-16 and multi-byte legacy
 * encodings are refused: the file cannot be read (exit 2).
 */
export function encodingOf(head: Buffer, bom: boolean): string {
  if ((head[0] === 0 && head[1] === LT) || (head[0] === LT && head[1] === 0))
    throw new UnreadableFileError(`line 1: UTF-16 is not read (${READS}); save the file as UTF-8`);
  const declaration = /^<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"'>]*)\1/.exec(head.toString('latin1'));
  if (declaration === null) return 'utf-8';
  const label = declaration[2]!;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    encoding = 'unknown';
  }
  if (encoding === 'unknown' || NOT_ASCII_SAFE.has(encoding))
    throw new UnreadableFileError(
      `line 1: the XML declaration names the encoding ${JSON.stringify(label.slice(0, 64))}, which is not read (${READS})`,
    );
  if (bom && encoding !== 'utf-8')
    throw new UnreadableFileError(
      `line 1: a UTF-8 byte order mark, but the XML declaration names the encoding ${JSON.stringify(label.slice(0, 64))}`,
    );
  return encoding;
}

/** The byte order mark a file starts with: UTF-8's is taken off, UTF-16's refused. */
export function startOfFile(bytes: Buffer): { bytes: Buffer; bom: boolean } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new UnreadableFileError(`line 1: a UTF-16 byte order mark: UTF-16 is not read (${READS})`);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { bytes: bom ? bytes.subarray(3) : bytes, bom };
}

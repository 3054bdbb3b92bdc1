// The lines (JSON Lines) or records (CSV) of an import file, read from its bytes
// (docs/decisions/0078-imports-refuse-what-they-cannot-read.md). Not node:readline: it buffers a
// line of any length (a 600 MB line threw RangeError) and decodes invalid UTF-8 as U+FFFD. Here a
// line longer than the limit is refused by its number and skipped without being held (its bytes
// are counted and dropped), and each line is decoded on its own with a fatal decoder, so a line
// of bad bytes is refused and the next one is read as usual. A line ends at LF, CRLF or CR (as
// readline's). With `quoted` (CSV) a line break inside double quotes does not end the record: a
// quote byte (0x22) is never part of a multi-byte UTF-8 character, so counting them on the bytes
// is exact.
import { UnreadableFileError } from './unreadable.ts';

/** The default for `--max-record-bytes`: a line or record above it is refused. */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;
/** The largest limit allowed: the memory bound (ADR 0078) holds up to it. */
export const MAX_RECORD_BYTES_LIMIT = 16 * 1024 * 1024;

export interface ReadOptions {
  /** A line (a record, for CSV and MARCXML) above this many bytes is refused. */
  readonly maxRecordBytes?: number;
}

export type TextRecord =
  { readonly line: number; readonly text: string } | { readonly line: number; readonly reason: string };

export function tooLong(max: number, what = 'line'): string {
  return `${what} longer than ${max} bytes (--max-record-bytes)`;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** Each line's (or CSV record's) bytes as text, or the reason it is refused; numbered from 1. */
export async function* readTextRecords(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: ReadOptions & { readonly quoted?: boolean } = {},
): AsyncGenerator<TextRecord> {
  const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const quoted = options.quoted ?? false;
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  let inQuote = false;
  let afterCr: 'no' | 'record' | 'quoted' = 'no';
  let line = 1;
  let start = 1;
  const keep = (piece: Buffer) => {
    if (over || piece.length === 0) return;
    size += piece.length;
    if (size > max) {
      over = true;
      parts = [];
    } else parts.push(piece);
  };
  const take = (): TextRecord | null => {
    const record: TextRecord | null = over
      ? { line: start, reason: tooLong(max, quoted ? 'record' : 'line') }
      : size > 0
        ? decode(
            start,
            parts.length === 1 ? parts[0]! : Buffer.concat(parts, size),
            quoted ? 'record' : 'line',
          )
        : null;
    parts = [];
    size = 0;
    over = false;
    return record;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (let i = 0; i < bytes.length; i += 1) {
      const b = bytes[i];
      if (afterCr !== 'no') {
        // CRLF is one line break: its LF neither counts nor starts the next record.
        const ended = afterCr === 'record';
        afterCr = 'no';
        if (b === LF) {
          if (ended) from = i + 1;
          continue;
        }
      }
      if (b === QUOTE && quoted) inQuote = !inQuote;
      if (b !== LF && b !== CR) continue;
      line += 1;
      if (b === CR) afterCr = inQuote ? 'quoted' : 'record';
      if (inQuote) continue;
      keep(bytes.subarray(from, i));
      from = i + 1;
      const record = take();
      if (record !== null) yield record;
      start = line;
    }
    keep(bytes.subarray(from));
  }
  const last = take();
  if (last !== null) yield last;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function decode(line: number, bytes: Buffer, what: string): TextRecord {
  if (line === 1) {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
      throw new UnreadableFileError('line 1: a UTF-16 byte order mark: save the file as UTF-8');
    if (bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
  }
  try {
    return { line, text: UTF8.decode(bytes) };
  } catch {
    return { line, reason: notUtf8(bytes, what) };
  }
}

/**
 * The first invalid UTF-8 sequence, as byte indexes [first, end): the shortest prefix a fatal
 * streaming decoder refuses (a prefix that ends inside a character is not refused, so the search
 * is monotone); the refused byte ends a sequence begun at its lead byte, at most three back.
 */
export function invalidUtf8(bytes: Uint8Array): { first: number; end: number } {
  let lo = 1;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, mid), {
        stream: true,
      });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  let first = lo - 1;
  for (let k = first - 1; k >= Math.max(0, lo - 4); k -= 1) {
    if (bytes[k]! >= 0xc0) {
      first = k;
      break;
    }
    if (bytes[k]! < 0x80) break;
  }
  return { first, end: lo };
}

export function hexBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

function notUtf8(bytes: Uint8Array, what: string): string {
  const { first, end } = invalidUtf8(bytes);
  return `not UTF-8: byte ${first + 1} of the ${what} starts an invalid sequence (${hexBytes(bytes.subarray(first, end))}); nothing of it was imported`;
}

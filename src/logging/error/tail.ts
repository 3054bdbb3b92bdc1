// The last entries of an error-log file, read backwards from the end in chunks: a log of
// gigabytes costs what its tail costs, never the whole file.
import { open } from 'node:fs/promises';
import { levelRank, type Level } from './format.ts';
import { isRawLine, parseErrorLine, type ErrorLogLine } from './parse.ts';

export interface TailOptions {
  /** How many entries (default 100). */
  readonly count?: number;
  /** Only entries at or above this level (lines that do not parse are always kept: their level is unknown). */
  readonly minLevel?: Level;
  /** Bytes read per step (default 64 KiB). */
  readonly chunkBytes?: number;
  /** Give up after this many bytes (default 16 MiB), so a rare level cannot make it read everything. */
  readonly maxScanBytes?: number;
}

export interface Tail {
  /** Newest first. */
  readonly entries: ErrorLogLine[];
  /** Bytes actually read. */
  readonly scannedBytes: number;
  /** The scan stopped at `maxScanBytes` before the start of the file. */
  readonly truncated: boolean;
}

export function passesLevel(line: ErrorLogLine, minLevel: Level | undefined): boolean {
  return minLevel === undefined || isRawLine(line) || levelRank(line.level) <= levelRank(minLevel);
}

/** Reads the tail of `file`; a missing file is an empty log. */
export async function readErrorLogTail(file: string, options: TailOptions = {}): Promise<Tail> {
  const count = options.count ?? 100;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const maxScan = options.maxScanBytes ?? 16 * 1024 * 1024;
  const entries: ErrorLogLine[] = [];
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { entries, scannedBytes: 0, truncated: false };
    throw error;
  }
  try {
    let position = (await handle.stat()).size;
    let scanned = 0;
    // Bytes of the line that starts before the current chunk (lines are split on bytes, so a
    // multi-byte character cut by a chunk boundary is decoded whole).
    let carry = Buffer.alloc(0);
    while (position > 0 && entries.length < count && scanned < maxScan) {
      const length = Math.min(chunkBytes, position, maxScan - scanned);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      scanned += bytesRead;
      let data = Buffer.concat([chunk.subarray(0, bytesRead), carry]);
      let end = data.length;
      for (let nl = data.lastIndexOf(0x0a, end - 1); nl >= 0 && entries.length < count;) {
        take(data.subarray(nl + 1, end));
        end = nl;
        nl = end > 0 ? data.lastIndexOf(0x0a, end - 1) : -1;
      }
      data = data.subarray(0, end);
      carry = Buffer.from(data);
    }
    if (position === 0 && entries.length < count) take(carry);
    return { entries, scannedBytes: scanned, truncated: position > 0 && entries.length < count };
  } finally {
    await handle.close();
  }

  function take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const line = parseErrorLine(bytes.toString('utf8').replace(/\r$/, ''));
    if (passesLevel(line, options.minLevel)) entries.push(line);
  }
}

// A short write(2) on a full filesystem leaves the start of a line at the end of the file. If
// that fragment stayed, the next line written there (often another worker's) would continue it:
// `...+0127.0.0.1 - - [...`. The fragment is cut off again so that a line is in the file whole
// or not at all. See docs/decisions/0011-log-sinks.md.
import fs from 'node:fs';

/**
 * Removes `fragment` (the bytes of our unfinished line that the short write put into the file)
 * from the end of the file behind `fd` (opened `a+`, so it can be read). Only when the file
 * still ends with exactly those bytes: if another process has appended since, cutting would
 * destroy its line, and the fragment is left (returns false).
 */
export function removePartialLine(fd: number, fragment: Buffer): boolean {
  if (fragment.length === 0) return true;
  const { size } = fs.fstatSync(fd);
  if (size < fragment.length) return false;
  const tail = Buffer.alloc(fragment.length);
  fs.readSync(fd, tail, 0, tail.length, size - tail.length);
  // A line another process appended whole ends in '\n'; a fragment never does. So a tail equal
  // to our fragment is our fragment (or an identical one, which is just as unwanted).
  if (!tail.equals(fragment)) return false;
  fs.ftruncateSync(fd, size - tail.length);
  return true;
}

/** How many bytes of `buf` (lines ending in '\n') form whole lines within its first `written`. */
export function wholeLinesIn(buf: Buffer, written: number): number {
  return written <= 0 ? 0 : buf.lastIndexOf(10, written - 1) + 1;
}

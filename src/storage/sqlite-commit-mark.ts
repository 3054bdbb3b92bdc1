// Whether anything was committed to an SQLite database in WAL mode since a moment, read
// without a statement: every commit rewrites the WAL-index header at the start of the `-shm`
// file (https://sqlite.org/walformat.html, "The WAL-Index Header": two 48-byte copies, with a
// change counter, the last valid frame and the WAL's salts). One pread(2) of the two copies
// costs about a microsecond; the statement the change feed would run instead takes a read
// lock (two fcntl calls and an fstat) on every cached answer. ADR 0100.
import fs from 'node:fs';

/** The header's version field, as SQLite writes it (in the machine's byte order). */
const WAL_INDEX_VERSION = 3007000;
const HEADER_BYTES = 48;

/**
 * One descriptor per `-shm` file (device and inode) and process, never closed: closing any
 * descriptor of a file drops every POSIX lock the process holds on it — SQLite's own locks on
 * the WAL index too, for every connection of the process (https://sqlite.org/howtocorrupt.html,
 * 2.2). A database file replaced at the same path has a new `-shm`, so a new descriptor.
 */
const descriptors = new Map<string, number>();

export interface CommitMark {
  /**
   * The header as it is now: the same string twice means no commit in between. Undefined when
   * it cannot be read or a writer is rewriting it this moment (the two copies differ): the
   * caller asks the database instead.
   */
  read(): string | undefined;
}

function descriptorOf(shm: string): number | undefined {
  try {
    const { dev, ino } = fs.statSync(shm);
    const key = `${dev}:${ino}`;
    let fd = descriptors.get(key);
    if (fd === undefined) descriptors.set(key, (fd = fs.openSync(shm, 'r')));
    return fd;
  } catch {
    return undefined;
  }
}

/**
 * The commit mark of the database file at `file`, or undefined when it has no WAL index (not
 * in WAL mode). Only while the process has a connection open to it, which keeps the index.
 */
export function openCommitMark(file: string): CommitMark | undefined {
  const fd = descriptorOf(`${file}-shm`);
  if (fd === undefined) return undefined;
  const buf = Buffer.alloc(2 * HEADER_BYTES);
  return {
    read() {
      try {
        if (fs.readSync(fd, buf, 0, buf.length, 0) !== buf.length) return undefined;
      } catch {
        return undefined;
      }
      if (buf.readUInt32LE(0) !== WAL_INDEX_VERSION && buf.readUInt32BE(0) !== WAL_INDEX_VERSION)
        return undefined;
      if (buf[12] !== 1) return undefined; // isInit: no connection has built the index yet
      // SQLite writes the second copy, then the first: two equal copies are one whole header.
      if (buf.compare(buf, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return undefined;
      return buf.toString('latin1', 0, HEADER_BYTES);
    },
  };
}

// `tail -F` for one log file: reports every whole line appended after the start, following the
// file through truncation (copytruncate) and rotation (the path names a new file: the old one
// is read to its end, then the new one from its start). fs.watch on the directory notices
// changes at once; a slow poll covers file systems where watching does not work.
import fs from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export interface FollowOptions {
  /** Safety-net poll interval in ms (default 1000). */
  readonly pollMs?: number;
  /** Called when reading fails for another reason than a missing file. */
  readonly onError?: (error: Error) => void;
}

export interface Follower {
  /** Resolves once the start offset is known (lines appended after it are reported). */
  readonly ready: Promise<void>;
  close(): void;
}

const CHUNK = 64 * 1024;

export function followFile(
  file: string,
  onLine: (line: string) => void,
  options: FollowOptions = {},
): Follower {
  let handle: FileHandle | null = null;
  let ino = -1;
  let offset = 0;
  let partial = Buffer.alloc(0);
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;

  async function openCurrent(atEnd: boolean): Promise<void> {
    try {
      const h = await open(file, 'r');
      const s = await h.stat();
      handle = h;
      ino = s.ino;
      offset = atEnd ? s.size : 0;
      partial = Buffer.alloc(0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Reads from `offset` to the end of the open file, reporting whole lines. */
  async function drain(): Promise<void> {
    const buffer = Buffer.alloc(CHUNK);
    while (handle && !closed) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, offset);
      if (bytesRead === 0) return;
      offset += bytesRead;
      let data = Buffer.concat([partial, buffer.subarray(0, bytesRead)]);
      for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
        const line = data.subarray(0, nl).toString('utf8').replace(/\r$/, '');
        data = data.subarray(nl + 1);
        if (!closed) onLine(line);
      }
      partial = Buffer.from(data);
    }
  }

  async function check(): Promise<void> {
    await ready;
    if (!handle) {
      await openCurrent(false); // created after we started: all of it is new
      if (handle) await drain();
      return;
    }
    const current = await stat(file).catch(() => null);
    const size = (await handle.stat()).size;
    if (size < offset) {
      offset = 0; // truncated in place
      partial = Buffer.alloc(0);
    }
    await drain();
    if (current && current.ino !== ino) {
      // Rotated: the old file is finished (read above), the path now names a new one.
      const old = handle;
      handle = null;
      await old.close();
      await openCurrent(false);
      await drain();
    }
  }

  /** Runs `check` one at a time; a change during a run triggers one more run. */
  function poke(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = check()
      .catch((error: Error) => options.onError?.(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          poke();
        }
      });
  }

  const ready: Promise<void> = openCurrent(true).catch((error: Error) => options.onError?.(error));
  let watcher: fs.FSWatcher | null = null;
  try {
    watcher = fs.watch(path.dirname(file), (_event, name) => {
      if (name === null || name === path.basename(file)) poke();
    });
    watcher.on('error', () => undefined);
  } catch {
    watcher = null; // directory missing or not watchable: the poll still works
  }
  const timer = setInterval(poke, options.pollMs ?? 1000);
  timer.unref();

  return {
    ready,
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
      // Closing finishes in the background; neither step can reject (both catch).
      void ready.then(async () => {
        await running;
        await handle?.close().catch(() => undefined);
        handle = null;
      });
    },
  };
}

// A log file that only ever receives whole lines. Lines are batched (at most `maxBatchBytes`,
// default 64 KiB) and each batch goes to the file in ONE write() on an O_APPEND descriptor,
// so several worker processes appending to the same file never interleave inside a line
// (see docs/decisions/0011-log-sinks.md). A batch is written at the latest `flushMs` after its
// first line. Failures never throw: they are reported once on stderr and retried.
import fs from 'node:fs';
import path from 'node:path';

export interface LogSink {
  /** Queues one line (without its `\n`). Lines must be printable ASCII (escaped). */
  write(line: string): void;
  /** Resolves when every line queued so far is in the file (or reported as failing). */
  flush(): Promise<void>;
  /** Synchronous best effort, for the last moment before process.exit(). */
  flushSync(): void;
  /** Opens the path again (logrotate moved the file away); no line lost or written twice. */
  reopen(): Promise<void>;
  /** Flushes, then closes the file. */
  close(): Promise<void>;
}

export interface SinkOptions {
  /** Maximum delay before a queued line is written (ms). */
  flushMs?: number;
  maxBatchBytes?: number;
  /** Queued bytes kept while the file cannot be written; older lines are dropped beyond it. */
  maxQueuedBytes?: number;
  /** Where failures are reported (default: process.stderr). */
  report?: (message: string) => void;
}

const PIPE_BUF = 4096;

/** `-` (with `stdio`) writes to stdout/stderr; anything else is a file path, created if missing. */
export function createLogSink(file: string, stdio: 'stdout' | 'stderr', options: SinkOptions = {}): LogSink {
  const toStdio = file === '-';
  const flushMs = options.flushMs ?? 50;
  // Writes to a shared pipe are only atomic up to PIPE_BUF.
  const maxBatch = toStdio ? PIPE_BUF : (options.maxBatchBytes ?? 64 * 1024);
  const maxQueued = options.maxQueuedBytes ?? 8 * 1024 * 1024;
  const report = options.report ?? ((m: string) => void process.stderr.write(m + '\n'));

  let queue: string[] = [];
  let queuedBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  let failing: string | undefined; // error code while writes fail
  let dropped = 0;
  let reopenWanted = false;
  let closed = false;
  let waiters: Array<() => void> = [];
  let fd: number | undefined;

  function open(): number {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return fs.openSync(file, 'a', 0o640);
  }

  function fail(err: NodeJS.ErrnoException, what: string): void {
    if (failing === err.code) return;
    failing = err.code ?? 'ERROR';
    report(`shelfmark: cannot ${what} log file ${file}: ${err.message} (lines are queued and retried)`);
  }

  function recovered(): void {
    if (failing === undefined) return;
    failing = undefined;
    report(`shelfmark: writing log file ${file} again${dropped ? ` (${dropped} lines were lost)` : ''}`);
    dropped = 0;
  }

  if (!toStdio) {
    try {
      fd = open();
    } catch (err) {
      fail(err as NodeJS.ErrnoException, 'open');
    }
  }

  function takeBatch(): string {
    let bytes = 0;
    let n = 0;
    while (n < queue.length && (n === 0 || bytes + queue[n]!.length + 1 <= maxBatch))
      bytes += queue[n++]!.length + 1;
    const lines = queue.slice(0, n);
    queue = queue.slice(n);
    queuedBytes -= bytes;
    return lines.join('\n') + '\n';
  }

  function settleWaiters(): void {
    // While the file is failing, flush() must not hang: it settles with the lines still queued.
    if (busy || (failing === undefined && (queue.length || reopenWanted))) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  }

  function schedule(delay: number): void {
    if (timer === undefined && !busy) timer = setTimeout(pump, delay).unref();
  }

  function doReopen(): void {
    reopenWanted = false;
    try {
      const next = open();
      if (fd !== undefined) fs.close(fd, () => {});
      fd = next;
      if (failing?.startsWith('open:')) recovered();
    } catch (err) {
      // Keep writing to the old descriptor; try again with the next batch.
      reopenWanted = true;
      const e = err as NodeJS.ErrnoException;
      if (failing !== 'open:' + e.code) {
        failing = 'open:' + e.code;
        report(`shelfmark: cannot reopen log file ${file}: ${e.message} (still writing to the old file)`);
      }
    }
  }

  function pump(): void {
    timer = undefined;
    if (busy) return;
    if (reopenWanted && !toStdio) doReopen();
    if (!queue.length) return settleWaiters();
    if (!toStdio && fd === undefined) {
      try {
        fd = open();
      } catch (err) {
        fail(err as NodeJS.ErrnoException, 'open');
        schedule(1000);
        return settleWaiters();
      }
    }
    const text = takeBatch();
    busy = true;
    if (toStdio) {
      const stream = stdio === 'stdout' ? process.stdout : process.stderr;
      stream.write(text, () => done());
      return;
    }
    writeAll(Buffer.from(text, 'latin1'), 0, text);
  }

  function writeAll(buf: Buffer, offset: number, text: string): void {
    fs.write(fd!, buf, offset, buf.length - offset, null, (err, written) => {
      if (err) {
        fail(err, 'write to');
        requeue(offset === 0 ? text : Buffer.from(buf.subarray(offset)).toString('latin1'));
        busy = false;
        schedule(1000);
        return settleWaiters();
      }
      if (offset + written < buf.length) return writeAll(buf, offset + written, text);
      if (failing !== undefined && !failing.startsWith('open:')) recovered();
      done();
    });
  }

  // Puts an unwritten batch back at the front, dropping the oldest lines beyond maxQueued.
  function requeue(text: string): void {
    const lines = text.split('\n').filter(Boolean);
    queue = lines.concat(queue);
    queuedBytes += text.length;
    while (queuedBytes > maxQueued && queue.length > 1) {
      queuedBytes -= queue.shift()!.length + 1;
      dropped++;
    }
  }

  function done(): void {
    busy = false;
    if (queue.length >= 1 && queuedBytes >= maxBatch) return pump();
    if (queue.length || reopenWanted) return schedule(queue.length && failing === undefined ? flushMs : 0);
    settleWaiters();
  }

  return {
    write(line) {
      if (closed) return;
      queue.push(line);
      queuedBytes += line.length + 1;
      if (queuedBytes >= maxBatch && !busy && failing === undefined) {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        pump();
      } else schedule(flushMs);
    },
    flush() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        if (!busy) {
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
          pump();
        }
      });
    },
    flushSync() {
      if (!queue.length) return;
      const text = queue.join('\n') + '\n';
      queue = [];
      queuedBytes = 0;
      try {
        if (toStdio) fs.writeSync(stdio === 'stdout' ? 1 : 2, text);
        else if (fd !== undefined) fs.writeSync(fd, Buffer.from(text, 'latin1'));
      } catch {
        /* nothing left to do at exit */
      }
    },
    reopen() {
      if (toStdio) return Promise.resolve();
      reopenWanted = true;
      return this.flush();
    },
    async close() {
      await this.flush();
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}

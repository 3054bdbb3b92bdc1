// A log file that only ever receives whole lines, each write(2) on an O_APPEND descriptor: an
// answered request's line is in the kernel before the worker reads its next request, so `kill
// -9` (of a worker or of the supervisor) loses no line of a request that was answered, and
// several worker processes appending to the same file never interleave inside a line. A line is
// written when it is logged, or — with `turn` — with the other lines of the same event-loop
// turn, in one write at the turn's end, and `afterWritten` holds the answers back until then.
// A short write (full disk) is undone (partial-line.ts). While the file cannot be written, lines
// are queued (bounded) and retried in batches. See docs/decisions/0011-log-sinks.md and 0100.
import fs from 'node:fs';
import path from 'node:path';
import { removePartialLine, wholeLinesIn } from './partial-line.ts';

export interface LogSink {
  /** Writes one line (without its `\n`). Lines must be printable ASCII (escaped). */
  write(line: string): void;
  /**
   * Runs `then` once every line written so far is in the kernel (or queued because the file
   * fails): at once, or at the end of this event-loop turn for a sink that writes by turn.
   */
  afterWritten(then: () => void): void;
  /** Resolves when every line written so far is in the file (or reported as failing). */
  flush(): Promise<void>;
  /** Synchronous last attempt at the lines still queued, for the moment before process.exit(). */
  flushSync(): void;
  /** Opens the path again (logrotate moved the file away); no line lost or written twice. */
  reopen(): Promise<void>;
  /** Flushes, then closes the file. */
  close(): Promise<void>;
}

export interface SinkOptions {
  /** While the file cannot be written, queued lines are retried this often (ms). */
  retryMs?: number;
  /** Largest single write when queued lines are retried. */
  maxBatchBytes?: number;
  /** Queued bytes kept while the file cannot be written; older lines are dropped beyond it. */
  maxQueuedBytes?: number;
  /** Where failures are reported (default: process.stderr). */
  report?: (message: string) => void;
  /**
   * The lines of one event-loop turn leave together, in one write when it ends (ADR 0100): one
   * system call for every request a turn answered, instead of one each. The caller holds back
   * what must not leave before its line (an answer) with `afterWritten`.
   */
  turn?: boolean;
}

/** Writes to a shared pipe are only atomic up to PIPE_BUF. */
const PIPE_BUF = 4096;

/** `-` (with `stdio`) writes to stdout/stderr; anything else is a file path, created if missing. */
export function createLogSink(file: string, stdio: 'stdout' | 'stderr', options: SinkOptions = {}): LogSink {
  return file === '-' ? createStdioSink(stdio) : createFileSink(file, options);
}

function createFileSink(file: string, options: SinkOptions): LogSink {
  const retryMs = options.retryMs ?? 1000;
  const maxBatch = options.maxBatchBytes ?? 64 * 1024;
  const maxQueued = options.maxQueuedBytes ?? 8 * 1024 * 1024;
  const report = options.report ?? ((m: string) => void process.stderr.write(m + '\n'));
  const byTurn = options.turn ?? false;

  // Lines not yet in the file: only while it fails (or a reopen failed); then every new line
  // queues behind them, so the order stays and a failing disk costs no system call per line.
  let queue: string[] = [];
  let queuedBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let failing: string | undefined; // what fails, reported once
  let dropped = 0;
  let reopenWanted = false;
  let closed = false;
  let fd: number | undefined;
  // With `turn`: the lines logged in this event-loop turn, and what waits for them to be written.
  let turnLines: string[] | undefined;
  let afterTurn: (() => void)[] = [];

  const open = (): number => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return fs.openSync(file, 'a+', 0o640); // readable too: partial-line.ts checks the file's end
  };
  try {
    fd = open();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    failing = `open:${e.code}`;
    report(`shelfmark: cannot open log file ${file}: ${e.message} (lines are queued and retried)`);
  }

  function fail(what: string, message: string): void {
    if (failing === what) return;
    failing = what;
    report(`shelfmark: ${message}`);
  }

  function recovered(): void {
    if (failing === undefined) return;
    failing = undefined;
    report(`shelfmark: writing log file ${file} again${dropped ? ` (${dropped} lines were lost)` : ''}`);
    dropped = 0;
  }

  function enqueue(lines: string[], front: boolean): void {
    queue = front ? lines.concat(queue) : queue.concat(lines);
    for (const l of lines) queuedBytes += l.length + 1;
    while (queuedBytes > maxQueued && queue.length > 1) {
      queuedBytes -= queue.shift()!.length + 1;
      dropped++;
    }
    if (timer === undefined && !closed) timer = setTimeout(retry, retryMs).unref();
  }

  /** Writes `lines` with one write(2); returns false (lines requeued in front) if not all made it. */
  function writeLines(lines: string[]): boolean {
    const buf = Buffer.from(lines.join('\n') + '\n', 'latin1');
    let written = 0;
    try {
      if (fd === undefined) fd = open();
      written = fs.writeSync(fd, buf);
      if (written === buf.length) return true;
      const whole = wholeLinesIn(buf, written);
      const fragment = buf.subarray(whole, written);
      if (!removePartialLine(fd, fragment))
        report(`shelfmark: log file ${file}: could not remove a partial line after a short write`);
      written = whole;
      // A short write to a regular file means the disk (or quota) is full: ENOSPC next time.
      fail('write to:ENOSPC', `cannot write to log file ${file}: disk full (lines are queued and retried)`);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const what = fd === undefined ? 'open' : 'write to';
      fail(
        `${what}:${e.code}`,
        `cannot ${what} log file ${file}: ${e.message} (lines are queued and retried)`,
      );
    }
    const done = written ? buf.subarray(0, written).toString('latin1').split('\n').length - 1 : 0;
    enqueue(lines.slice(done), true);
    return false;
  }

  function doReopen(): void {
    try {
      const next = open();
      if (fd !== undefined) fs.closeSync(fd);
      fd = next;
      reopenWanted = false;
      if (failing?.startsWith('reopen:')) recovered();
    } catch (err) {
      // Keep writing to the old descriptor; try again with the next retry.
      reopenWanted = true;
      const e = err as NodeJS.ErrnoException;
      fail(
        `reopen:${e.code}`,
        `cannot reopen log file ${file}: ${e.message} (still writing to the old file)`,
      );
      if (timer === undefined && !closed) timer = setTimeout(retry, retryMs).unref();
    }
  }

  /** Writes the queue in batches of at most maxBatch bytes, stopping at the first failure. */
  function retry(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (reopenWanted) doReopen();
    while (queue.length) {
      let bytes = 0;
      let n = 0;
      while (n < queue.length && (n === 0 || bytes + queue[n]!.length + 1 <= maxBatch))
        bytes += queue[n++]!.length + 1;
      const batch = queue.slice(0, n);
      queue = queue.slice(n);
      queuedBytes -= bytes;
      if (!writeLines(batch)) return;
    }
    if (!reopenWanted) recovered();
  }

  /** Behind queued lines (the file is failing), or now, in writes of at most maxBatch bytes. */
  function writeNow(lines: string[]): void {
    if (queue.length || fd === undefined) return enqueue(lines, false);
    let from = 0;
    while (from < lines.length) {
      let bytes = 0;
      let to = from;
      while (to < lines.length && (to === from || bytes + lines[to]!.length + 1 <= maxBatch))
        bytes += lines[to++]!.length + 1;
      if (!writeLines(lines.slice(from, to))) return enqueue(lines.slice(to), false);
      from = to;
    }
    if (failing !== undefined && !reopenWanted) recovered();
  }

  /** The end of a turn (or a flush before it): its lines leave, then what waited for them. */
  function endTurn(): void {
    const lines = turnLines;
    turnLines = undefined;
    if (lines?.length) writeNow(lines);
    const waiting = afterTurn;
    afterTurn = [];
    for (const then of waiting) then();
  }

  return {
    write(line) {
      if (closed) return;
      if (!byTurn) return writeNow([line]);
      if (turnLines === undefined) {
        turnLines = [];
        setImmediate(endTurn);
      }
      turnLines.push(line);
    },
    afterWritten(then) {
      if (turnLines === undefined) then();
      else afterTurn.push(then);
    },
    flush() {
      endTurn();
      if (queue.length || reopenWanted) retry();
      return Promise.resolve();
    },
    flushSync() {
      endTurn();
      if (queue.length || reopenWanted) retry();
    },
    reopen() {
      endTurn();
      reopenWanted = true;
      retry();
      return Promise.resolve();
    },
    close() {
      endTurn();
      if (!closed) retry();
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
      return Promise.resolve();
    },
  };
}

/**
 * stdout/stderr (`-`): a pipe to a collector. A line goes out at once; lines logged while a
 * write is pending follow as one write of at most PIPE_BUF bytes, which a pipe keeps whole.
 */
function createStdioSink(stdio: 'stdout' | 'stderr'): LogSink {
  const stream = stdio === 'stdout' ? process.stdout : process.stderr;
  let queue: string[] = [];
  let busy = false;
  let waiters: Array<() => void> = [];

  function next(): void {
    if (!queue.length) {
      busy = false;
      const w = waiters;
      waiters = [];
      for (const f of w) f();
      return;
    }
    let bytes = 0;
    let n = 0;
    while (n < queue.length && (n === 0 || bytes + queue[n]!.length + 1 <= PIPE_BUF))
      bytes += queue[n++]!.length + 1;
    const text = queue.slice(0, n).join('\n') + '\n';
    queue = queue.slice(n);
    busy = true;
    stream.write(text, () => next());
  }

  return {
    write(line) {
      queue.push(line);
      if (!busy) next();
    },
    afterWritten: (then) => then(),
    flush() {
      return busy ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve();
    },
    flushSync() {
      if (!queue.length) return;
      const text = queue.join('\n') + '\n';
      queue = [];
      try {
        fs.writeSync(stdio === 'stdout' ? 1 : 2, text);
      } catch {
        /* nothing left to do at exit */
      }
    },
    reopen: () => Promise.resolve(),
    close() {
      return this.flush();
    },
  };
}

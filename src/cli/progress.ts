// A progress bar for long imports, on stderr and only when stderr is a terminal: a log file or
// a pipe gets the reported lines and nothing else.
import type { WriteStream } from 'node:tty';

export interface Progress {
  /** Redraws the bar (at most every 200 ms) after the given line. */
  update(line: number): void;
  /** Writes a message above the bar. */
  say(text: string): void;
  /** Removes the bar. */
  done(): void;
}

const WIDTH = 30;

export function progressBar(
  stream: NodeJS.WriteStream | WriteStream,
  bytesRead: () => number,
  totalBytes: number,
): Progress {
  const tty = stream.isTTY === true;
  let last = 0;
  let shown = false;
  const clear = () => {
    if (shown) stream.write('\r\x1b[K');
    shown = false;
  };
  return {
    update(line) {
      if (!tty || Date.now() - last < 200) return;
      last = Date.now();
      const share = totalBytes > 0 ? Math.min(1, bytesRead() / totalBytes) : 0;
      const bar =
        totalBytes > 0
          ? `[${'#'.repeat(Math.round(share * WIDTH)).padEnd(WIDTH, '.')}] ${(share * 100).toFixed(0).padStart(3)}% `
          : '';
      stream.write(`\r${bar}line ${line.toLocaleString('en')}\x1b[K`);
      shown = true;
    },
    say(text) {
      clear();
      stream.write(text);
    },
    done: clear,
  };
}

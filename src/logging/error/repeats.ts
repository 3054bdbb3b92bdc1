// Collapses an error that repeats many times a second (every request during a database
// outage) into the first occurrence plus one "... repeated N times" entry per interval, the
// way syslog does ("last message repeated N times"). Without it an 8 s outage wrote 14,029
// stack traces. Keys are what makes two occurrences "the same" (class and message).
import type { Level } from './format.ts';

/** Writes a summary entry. */
export type SummaryWriter = (level: Level, message: string) => void;

export interface Repeats {
  /** Calls `writeFirst()` if `key` was not seen in the current interval, else counts it. */
  occur(key: string, level: Level, writeFirst: () => void): void;
  /** Writes every pending summary now (shutdown) and forgets all keys. */
  flush(): void;
}

interface Seen {
  readonly level: Level;
  count: number;
  timer: ReturnType<typeof setTimeout>;
}

/** Default summary interval: short enough to see an outage end, long enough to stay small. */
export const REPEAT_INTERVAL_MS = 10_000;
/** Keys remembered at once; beyond that an entry is written in full (memory stays bounded). */
const MAX_KEYS = 100;

export function createRepeats(write: SummaryWriter, intervalMs = REPEAT_INTERVAL_MS): Repeats {
  const seen = new Map<string, Seen>();
  const seconds = Math.max(1, Math.round(intervalMs / 1000));
  const summarise = (key: string, entry: Seen) => {
    write(entry.level, `... repeated ${entry.count} times in the last ${seconds} s: ${key}`);
    entry.count = 0;
  };
  const arm = (key: string, entry: Seen) => {
    entry.timer = setTimeout(() => {
      if (entry.count === 0) {
        seen.delete(key); // quiet for a whole interval: the next occurrence is written in full
        return;
      }
      summarise(key, entry);
      arm(key, entry);
    }, intervalMs);
    entry.timer.unref();
  };
  return {
    occur(key, level, writeFirst) {
      const entry = seen.get(key);
      if (entry) {
        entry.count += 1;
        return;
      }
      writeFirst();
      if (seen.size >= MAX_KEYS) return;
      const created: Seen = { level, count: 0, timer: undefined as never };
      seen.set(key, created);
      arm(key, created);
    },
    flush() {
      for (const [key, entry] of seen) {
        clearTimeout(entry.timer);
        if (entry.count > 0) summarise(key, entry);
      }
      seen.clear();
    },
  };
}

// Failed log-ins per (account, address) and per address in a sliding window (ADR 0034): past
// `maxFailures` within `windowMs`, attempts get 429 before any password check. Keys use the
// normalised name. MemoryLoginLimiter is per process (tests); `shelfmark serve` counts in the
// database, shared by workers, machines and restarts.
import { normaliseUsername } from './username.ts';

type Awaitable<T> = T | Promise<T>;
export type LimitVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export interface LoginLimiter {
  check(key: string): Awaitable<LimitVerdict>;
  recordFailure(key: string): Awaitable<void>;
  reset(key: string): Awaitable<void>;
}

export interface MemoryLimiterOptions {
  readonly maxFailures?: number;
  readonly windowMs?: number;
  /** Bound on remembered keys, so a flood of made-up names cannot exhaust memory. */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

/** One key per account and address, the name normalised exactly as for the account lookup. */
export function limiterKey(username: string, address: string): string {
  return `${normaliseUsername(username)}\u0000${address}`;
}

/** One key per address, whatever the account (an address never contains NUL, so no name's key
 * can be the same). */
export function addressLimiterKey(address: string): string {
  return `*\u0000\u0000${address}`;
}

export class MemoryLoginLimiter implements LoginLimiter {
  readonly #max: number;
  readonly #window: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #failures = new Map<string, number[]>();

  constructor(options: MemoryLimiterOptions = {}) {
    this.#max = options.maxFailures ?? 5;
    this.#window = options.windowMs ?? 15 * 60_000;
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  #recent(key: string, now: number): number[] {
    const kept = (this.#failures.get(key) ?? []).filter((t) => t > now - this.#window);
    if (kept.length === 0) this.#failures.delete(key);
    else this.#failures.set(key, kept);
    return kept;
  }

  check(key: string): LimitVerdict {
    const now = this.#now();
    const recent = this.#recent(key, now);
    if (recent.length < this.#max) return { allowed: true };
    const oldest = recent[recent.length - this.#max] as number;
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.#window - now) / 1000)),
    };
  }

  recordFailure(key: string): void {
    const now = this.#now();
    const recent = this.#recent(key, now);
    recent.push(now);
    this.#failures.delete(key);
    this.#failures.set(key, recent.slice(-this.#max));
    // Map iteration is insertion order: the first key is the least recently failed.
    while (this.#failures.size > this.#maxKeys) {
      const first = this.#failures.keys().next().value;
      if (first === undefined) break;
      this.#failures.delete(first);
    }
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }
}

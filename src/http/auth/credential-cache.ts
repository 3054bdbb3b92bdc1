// Remembers briefly that a Basic credential was verified, so a client sending Basic on every
// request pays one scrypt per `ttlMs` (ADR 0035). Keyed by an HMAC (random per-process key) of
// name and password; an entry holds the hash and epoch it was verified against, which the caller
// compares with the account as read now (a password change, lock or role change ends it).
import { createHmac, randomBytes } from 'node:crypto';

export interface CachedCredential {
  readonly accountId: number;
  readonly passwordHash: string;
  readonly epoch: number;
  readonly until: number;
}

export interface CredentialCacheOptions {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export class CredentialCache {
  readonly #key = randomBytes(32);
  readonly #ttl: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, CachedCredential>();

  constructor(options: CredentialCacheOptions = {}) {
    this.#ttl = options.ttlMs ?? 60_000;
    this.#max = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** The opaque key for a (normalised name, password) pair. */
  keyOf(username: string, password: string): string {
    return createHmac('sha256', this.#key)
      .update(username)
      .update('\u0000')
      .update(password)
      .digest('base64url');
  }

  get(key: string): CachedCredential | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.until <= this.#now()) {
      this.#entries.delete(key);
      return null;
    }
    return entry;
  }

  remember(key: string, accountId: number, passwordHash: string, epoch = 0): void {
    if (this.#ttl <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { accountId, passwordHash, epoch, until: this.#now() + this.#ttl });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

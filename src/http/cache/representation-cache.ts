// Rendered representations kept in memory, valid for one version of the database (ADR 0048).
// Each worker process has its own cache; what makes it safe across workers and machines is the
// version: the application supplies a function reading a counter that every committed write
// changes, the dispatcher reads it BEFORE the handler reads anything else, and an entry is served
// only when it was stored under the version just read. So a write acknowledged to any client
// (its counter change committed with it) is seen by the next request on every process.

/** Everything sendRepresentation needs to answer again without the handler. */
export interface CachedRepresentation {
  readonly body: string;
  readonly etag: string;
  readonly lastModified: Date | undefined;
  readonly contentType: string;
  /** Further response headers in order (Vary, Content-Location, Link, Cache-Control). */
  readonly headers: readonly (readonly [string, string])[];
  /**
   * The body compressed, filled by the first response in each coding (ADR 0014): a cached
   * entry is compressed once per coding, not per request. Absent: compressed per response.
   */
  readonly compressed?: { br?: Buffer; gzip?: Buffer };
  /**
   * Milliseconds since the epoch from which the entry is not served (Representation.freshUntil:
   * the representation shows something that changes with the clock). Absent: only writes end it.
   */
  readonly expiresAt?: number | undefined;
}

export interface RepresentationCacheOptions {
  /** Upper bound of the bytes held (bodies, headers and keys); 0 switches the cache off. */
  readonly maxBytes: number;
  /**
   * Reads the database's change counter: any committed write changes its value. It may answer
   * synchronously (SQLite while its connection is free, ADR 0066).
   */
  readonly version: () => Promise<string | number | bigint> | string | number | bigint;
}

export interface RepresentationCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
  readonly hits: number;
  readonly misses: number;
}

/** Rough per-entry overhead of the Map slot, the record and the header array. */
const ENTRY_OVERHEAD = 200;

function sizeOf(key: string, entry: CachedRepresentation): number {
  // body.length once more: room for the compressed variants filled in later (each well under
  // half of a text body), so the bound holds without re-counting on every response.
  let bytes = ENTRY_OVERHEAD + key.length * 2 + entry.body.length * 3 + entry.etag.length * 2;
  for (const [name, value] of entry.headers) bytes += (name.length + value.length) * 2 + 32;
  return bytes;
}

function isExpired(entry: CachedRepresentation, now: number): boolean {
  return entry.expiresAt !== undefined && now >= entry.expiresAt;
}

interface Slot {
  readonly entry: CachedRepresentation;
  readonly bytes: number;
}

export class RepresentationCache {
  readonly maxBytes: number;
  readonly #readVersion: RepresentationCacheOptions['version'];
  /** Least recently used first (Map keeps insertion order; a hit re-inserts). */
  readonly #slots = new Map<string, Slot>();
  /** The newest version seen; every slot belongs to it. */
  #version: string | undefined;
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(options: RepresentationCacheOptions) {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
      throw new RangeError(`representation cache size must be a whole number of bytes ≥ 0`);
    }
    this.maxBytes = options.maxBytes;
    this.#readVersion = options.version;
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /**
   * Reads the database version now. Entries of any other version are dropped: after a write
   * nothing stored before it can be served again.
   */
  currentVersion(): Promise<string> | string {
    const read = this.#readVersion();
    return read instanceof Promise ? read.then((v) => this.#seen(String(v))) : this.#seen(String(read));
  }

  #seen(version: string): string {
    if (version !== this.#version) {
      this.#slots.clear();
      this.#bytes = 0;
      this.#version = version;
    }
    return version;
  }

  /** The entry stored under `key` for exactly `version` and still fresh at `now`, or undefined. */
  get(key: string, version: string, now = Date.now()): CachedRepresentation | undefined {
    const slot = version === this.#version ? this.#slots.get(key) : undefined;
    if (!slot || isExpired(slot.entry, now)) {
      if (slot) this.#drop(key, slot);
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    return slot.entry;
  }

  /**
   * Stores what was rendered from data read at `version` (read before the data). A newer version
   * seen meanwhile means the data may be older than it: then nothing is stored.
   */
  set(key: string, version: string, entry: CachedRepresentation): void {
    if (!this.enabled || version !== this.#version) return;
    const bytes = sizeOf(key, entry);
    if (bytes > this.maxBytes) return;
    const old = this.#slots.get(key);
    if (old) {
      this.#slots.delete(key);
      this.#bytes -= old.bytes;
    }
    while (this.#bytes + bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.#slots.entries().next().value!;
      this.#slots.delete(oldestKey);
      this.#bytes -= oldest.bytes;
    }
    this.#slots.set(key, { entry, bytes });
    this.#bytes += bytes;
  }

  #drop(key: string, slot: Slot): void {
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
  }

  /** What the cache holds now: for operators and tests (never timing). */
  stats(): RepresentationCacheStats {
    return {
      entries: this.#slots.size,
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
      hits: this.#hits,
      misses: this.#misses,
    };
  }
}

// Rendered representations kept in memory, valid for one version of the database (ADR 0048).
// Each worker process has its own cache; what makes it safe across workers and machines is the
// version: the application supplies a function reading a counter that every committed write
// changes, the dispatcher reads it BEFORE the handler reads anything else, and an entry is served
// only when it was stored under the version just read. So a write acknowledged to any client
// (its counter change committed with it) is seen by the next request on every process.
// Beside each rendering the cache keeps the responses made from it for anonymous and Basic
// requests, keyed by the request's own fields: the pipeline's early exit (ADR 0071).

/** Everything sendRepresentation needs to answer again without the handler. */
export interface CachedRepresentation {
  /** The body's UTF-8 bytes: encoded once, sent as they are. */
  readonly body: Buffer;
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

/** A kept 200 response to a keyed GET (kept-response.ts, ADR 0071). */
export interface WireResponse {
  /** The representation's headers as the dispatcher set them; not Content-Length or Last-Modified. */
  readonly headers: readonly (readonly [string, string])[];
  /** The bytes sent: the rendering's body or one of its compressed variants (shared with it). */
  readonly payload: Buffer;
  /** Sent as Last-Modified once its second is over (ADR 0024). */
  readonly lastModified: Date | undefined;
  readonly expiresAt: number | undefined;
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
  // Half the body once more: room for the compressed variants filled in later (each well under
  // a quarter of a text body), so the bound holds without re-counting on every response.
  let bytes =
    ENTRY_OVERHEAD + key.length * 2 + Math.ceil(entry.body.byteLength * 1.5) + entry.etag.length * 2;
  for (const [name, value] of entry.headers) bytes += (name.length + value.length) * 2 + 32;
  return bytes;
}

/** A response's own bytes: its payload is its rendering's, counted there (and dropped with it). */
function wireSizeOf(key: string, wire: WireResponse): number {
  let bytes = ENTRY_OVERHEAD + key.length * 2;
  for (const [name, value] of wire.headers) bytes += (name.length + value.length) * 2 + 32;
  return bytes;
}

function isExpired(entry: { readonly expiresAt?: number | undefined }, now: number): boolean {
  return entry.expiresAt !== undefined && now >= entry.expiresAt;
}

interface Slot {
  readonly entry: CachedRepresentation | WireResponse;
  readonly bytes: number;
  /** A rendering's responses (their keys): they go when it goes. */
  wires?: string[];
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

  /** The rendering stored under `key` for exactly `version` and still fresh at `now`, or undefined. */
  get(key: string, version: string, now = Date.now()): CachedRepresentation | undefined {
    const entry = this.#take(key, version, now) as CachedRepresentation | undefined;
    if (entry) this.#hits += 1;
    else this.#misses += 1;
    return entry;
  }

  /** The finished response stored under a request key (`setWire`), or undefined: not a miss yet. */
  getWire(requestKey: string, version: string, now = Date.now()): WireResponse | undefined {
    const wire = this.#take(requestKey, version, now) as WireResponse | undefined;
    if (wire) this.#hits += 1;
    return wire;
  }

  #take(key: string, version: string, now: number): CachedRepresentation | WireResponse | undefined {
    const slot = version === this.#version ? this.#slots.get(key) : undefined;
    if (!slot) return undefined;
    if (isExpired(slot.entry, now)) {
      this.#drop(key, slot);
      return undefined;
    }
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
    this.#store(key, { entry, bytes: sizeOf(key, entry) });
  }

  /**
   * Stores a finished response made from the rendering under `key` (which must be held for
   * `version`), under the request key that will find it again (a key of its own kind: the
   * caller keeps the two apart). It leaves the cache with its rendering.
   */
  setWire(requestKey: string, key: string, version: string, wire: WireResponse): void {
    if (!this.enabled || version !== this.#version) return;
    const rendering = this.#slots.get(key);
    if (!rendering) return;
    if (!this.#store(requestKey, { entry: wire, bytes: wireSizeOf(requestKey, wire) })) return;
    const wires = (rendering.wires ??= []);
    if (!wires.includes(requestKey)) wires.push(requestKey);
  }

  #store(key: string, slot: Slot): boolean {
    if (slot.bytes > this.maxBytes) return false;
    const old = this.#slots.get(key);
    if (old) this.#drop(key, old);
    while (this.#bytes + slot.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.#slots.entries().next().value!;
      this.#drop(oldestKey, oldest);
    }
    this.#slots.set(key, slot);
    this.#bytes += slot.bytes;
    return true;
  }

  #drop(key: string, slot: Slot): void {
    if (this.#slots.get(key) !== slot) return;
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
    for (const wireKey of slot.wires ?? []) {
      const wire = this.#slots.get(wireKey);
      if (wire) this.#drop(wireKey, wire);
    }
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

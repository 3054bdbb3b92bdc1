// Rendered representations kept in memory until something they show changes (ADR 0048, 0088),
// per worker. The change feed makes that safe across workers and machines: read before the
// handler reads anything, it drops every rendering showing a changed subject, and a rendering is
// stored only if none of its subjects changed since that read. Beside each rendering the
// responses made from it for keyed requests: the pipeline's early exit (ADR 0071).

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

/**
 * What changed in the database since the feed's previous answer (ADR 0088): the subjects a write
 * changed (`person:12`, `works` …, named by the application), or everything — also on the first
 * answer, and whenever the feed cannot say (its history was pruned, a table without finer
 * tracking was written). An empty list: nothing changed.
 */
export type ChangeBatch = readonly string[] | 'everything';

/** A rendering that declared nothing it depends on: every change drops it. */
export const EVERYTHING: readonly string[] = Object.freeze(['*']);

export interface RepresentationCacheOptions {
  /** Upper bound of the bytes held (bodies, headers and keys); 0 switches the cache off. */
  readonly maxBytes: number;
  /**
   * Reads what committed writes changed since the last call: every write committed before the
   * call is reported by it or an earlier call. It may answer synchronously (SQLite while its
   * connection is free, ADR 0066). Calls may overlap; each answer is applied when it arrives.
   */
  readonly changes: () => Promise<ChangeBatch> | ChangeBatch;
}

export interface RepresentationCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
  readonly hits: number;
  readonly misses: number;
  /**
   * The misses by why the key was not held (ADR 0105): `cold` (never stored in this process),
   * `evicted` (by size), `expired`, `everything` (a feed answer of everything), `changed <kind>`
   * (dropped by a change of a subject of that kind, `person` for `person:12`), `raced <kind>`
   * (rendered, but not stored: a subject of that kind changed meanwhile).
   */
  readonly missesBy: Readonly<Record<string, number>>;
}

/** A subject's kind, for the miss counts: `person` of `person:12`, `persons` of `persons`. */
function kindOf(subject: string): string {
  const colon = subject.indexOf(':');
  return colon < 0 ? subject : subject.slice(0, colon);
}

/** Past this many keys remembered as gone, the memory is cleared (later misses count as cold). */
const MAX_REMEMBERED_GONE = 200_000;

/** Rough per-entry overhead of the Map slot, the record and the header array. */
const ENTRY_OVERHEAD = 200;

function sizeOf(key: string, entry: CachedRepresentation, dependsOn: readonly string[]): number {
  // Half the body once more: room for the compressed variants filled in later (each well under
  // a quarter of a text body), so the bound holds without re-counting on every response.
  let bytes =
    ENTRY_OVERHEAD + key.length * 2 + Math.ceil(entry.body.byteLength * 1.5) + entry.etag.length * 2;
  for (const [name, value] of entry.headers) bytes += (name.length + value.length) * 2 + 32;
  for (const subject of dependsOn) bytes += subject.length * 2 + 64;
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
  /** A rendering's subjects (ADR 0088): a change of any of them drops it. */
  readonly dependsOn?: readonly string[];
  /** A rendering's responses (their keys): they go when it goes. */
  wires?: string[];
  /** Asked for since it was stored or last passed over for eviction (its second chance). */
  used?: boolean;
}

/** Past this many remembered subject changes the memory is cleared (renderings in flight then go unstored). */
const MAX_REMEMBERED_CHANGES = 100_000;

export class RepresentationCache {
  readonly maxBytes: number;
  readonly #readChanges: () => Promise<ChangeBatch> | ChangeBatch;
  /**
   * Oldest first (Map keeps insertion order). A hit only marks its slot used; eviction moves a
   * used slot to the end instead of dropping it (second chance, CLOCK): nearly least recently
   * used, without re-inserting on every hit.
   */
  readonly #slots = new Map<string, Slot>();
  /** The renderings' keys per subject they depend on. */
  readonly #dependents = new Map<string, Set<string>>();
  /**
   * Counts the change batches applied: a request's version is the epoch after the changes read
   * for it, and a rendering is stored only if none of its subjects changed in a later epoch.
   */
  #epoch = 0;
  /** The epoch of each subject's last change (since #forgottenBefore). */
  readonly #changedAt = new Map<string, number>();
  /** Changes before this epoch are forgotten: a rendering begun earlier is not stored. */
  #forgottenBefore = 0;
  /** The epochs of the last 'everything' and of the last change of any kind. */
  #everythingAt = 0;
  #anyAt = 0;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  /** Why each key no longer held went (for missesBy); absent: never stored. */
  readonly #gone = new Map<string, string>();
  readonly #missesBy = new Map<string, number>();

  constructor(options: RepresentationCacheOptions) {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
      throw new RangeError(`representation cache size must be a whole number of bytes ≥ 0`);
    }
    this.maxBytes = options.maxBytes;
    this.#readChanges = options.changes;
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /**
   * Reads what changed in the database since the last read and drops the renderings that
   * showed it; answers the version to pass to `get` and `set` (an epoch: opaque to callers).
   * After a write nothing stored before it that showed what it changed can be served again.
   */
  currentVersion(): Promise<string> | string {
    const read = this.#readChanges();
    return read instanceof Promise ? read.then((b) => this.#apply(b)) : this.#apply(read);
  }

  #apply(batch: ChangeBatch): string {
    if (batch === 'everything') {
      for (const key of this.#slots.keys()) this.#wentBecause(key, 'everything');
      this.#epoch += 1;
      this.#everythingAt = this.#anyAt = this.#epoch;
      this.#slots.clear();
      this.#dependents.clear();
      this.#changedAt.clear();
      this.#forgottenBefore = this.#epoch;
      this.#bytes = 0;
    } else if (batch.length > 0) {
      this.#epoch += 1;
      this.#anyAt = this.#epoch;
      if (this.#changedAt.size + batch.length > MAX_REMEMBERED_CHANGES) {
        this.#changedAt.clear();
        this.#forgottenBefore = this.#epoch;
      }
      for (const subject of batch) {
        this.#changedAt.set(subject, this.#epoch);
        this.#dropDependents(subject);
      }
      this.#dropDependents(EVERYTHING[0]!);
    }
    return String(this.#epoch);
  }

  #dropDependents(subject: string): void {
    const keys = this.#dependents.get(subject);
    if (!keys) return;
    const why = `changed ${kindOf(subject)}`;
    for (const key of [...keys]) {
      const slot = this.#slots.get(key);
      if (slot) {
        this.#wentBecause(key, why);
        this.#drop(key, slot);
      }
    }
    this.#dependents.delete(subject);
  }

  /** The rendering stored under `key`, still fresh at `now`, or undefined (`version`: what the request read). */
  get(key: string, _version: string, now = Date.now()): CachedRepresentation | undefined {
    const entry = this.#take(key, now) as CachedRepresentation | undefined;
    if (entry) this.#hits += 1;
    else {
      this.#misses += 1;
      const why = this.#gone.get(key) ?? 'cold';
      this.#missesBy.set(why, (this.#missesBy.get(why) ?? 0) + 1);
    }
    return entry;
  }

  /** The finished response stored under a request key (`setWire`), or undefined: not a miss yet. */
  getWire(requestKey: string, _version: string, now = Date.now()): WireResponse | undefined {
    const wire = this.#take(requestKey, now) as WireResponse | undefined;
    if (wire) this.#hits += 1;
    return wire;
  }

  #take(key: string, now: number): CachedRepresentation | WireResponse | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    if (isExpired(slot.entry, now)) {
      this.#wentBecause(key, 'expired');
      this.#drop(key, slot);
      return undefined;
    }
    slot.used = true;
    return slot.entry;
  }

  /**
   * Undefined when none of `dependsOn` changed after the epoch `version` (read before the
   * data); else what did (for the miss counts).
   */
  #changedSince(version: string, dependsOn: readonly string[]): string | undefined {
    const since = Number(version);
    if (!(since >= this.#forgottenBefore)) return 'forgotten';
    if (this.#everythingAt > since) return 'everything';
    if (this.#anyAt <= since) return undefined;
    for (const subject of dependsOn) {
      if (subject === EVERYTHING[0]) return 'undeclared';
      if ((this.#changedAt.get(subject) ?? 0) > since) return kindOf(subject);
    }
    return undefined;
  }

  #wentBecause(key: string, why: string): void {
    if (this.#gone.size >= MAX_REMEMBERED_GONE) this.#gone.clear();
    this.#gone.set(key, why);
  }

  /**
   * Stores what was rendered from data read after `version` was read, showing the subjects
   * `dependsOn` (EVERYTHING when undeclared). When one of them changed since, the data may be
   * older than the change: then nothing is stored.
   */
  set(
    key: string,
    version: string,
    entry: CachedRepresentation,
    dependsOn: readonly string[] = EVERYTHING,
  ): void {
    if (!this.enabled) return;
    const changed = this.#changedSince(version, dependsOn);
    if (changed !== undefined) {
      this.#wentBecause(key, `raced ${changed}`);
      return;
    }
    const subjects = [...new Set(dependsOn)];
    if (!this.#store(key, { entry, bytes: sizeOf(key, entry, subjects), dependsOn: subjects })) return;
    for (const subject of subjects) {
      let keys = this.#dependents.get(subject);
      if (!keys) this.#dependents.set(subject, (keys = new Set()));
      keys.add(key);
    }
  }

  /**
   * Stores a finished response made from the rendering under `key` (which must still be held),
   * under the request key that will find it again (a key of its own kind: the caller keeps the
   * two apart). It leaves the cache with its rendering.
   */
  setWire(requestKey: string, key: string, _version: string, wire: WireResponse): void {
    if (!this.enabled) return;
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
      if (oldest.used) {
        oldest.used = false;
        this.#slots.delete(oldestKey);
        this.#slots.set(oldestKey, oldest);
        continue;
      }
      this.#wentBecause(oldestKey, 'evicted');
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
    for (const subject of slot.dependsOn ?? []) {
      const keys = this.#dependents.get(subject);
      keys?.delete(key);
      if (keys?.size === 0) this.#dependents.delete(subject);
    }
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
      missesBy: Object.fromEntries(this.#missesBy),
    };
  }
}

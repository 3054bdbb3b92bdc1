import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RepresentationCache, type CachedRepresentation } from './representation-cache.ts';
import { versionFeed } from '../../../test/kit/http/version-feed.ts';

function entry(body: string): CachedRepresentation {
  return {
    body: Buffer.from(body),
    etag: `"${body.length}"`,
    lastModified: undefined,
    contentType: 'text/plain',
    headers: [],
  };
}

function cacheAt(maxBytes: number) {
  let version = 1;
  const cache = new RepresentationCache({ maxBytes, changes: versionFeed(async () => version) });
  return { cache, bump: () => (version += 1) };
}

test('an entry is served only for the version it was stored under', async () => {
  const { cache, bump } = cacheAt(1 << 20);
  const v1 = await cache.currentVersion();
  cache.set('a', v1, entry('one'));
  assert.equal(cache.get('a', v1)?.body.toString(), 'one');
  bump();
  const v2 = await cache.currentVersion();
  assert.notEqual(v2, v1);
  assert.equal(cache.get('a', v2), undefined, 'a newer database version drops it');
  assert.equal(cache.stats().entries, 0);
});

test('a rendering of data read before a newer version is not stored', async () => {
  const { cache, bump } = cacheAt(1 << 20);
  const old = await cache.currentVersion();
  bump();
  const current = await cache.currentVersion(); // another request saw the write meanwhile
  cache.set('a', old, entry('stale'));
  assert.equal(cache.get('a', current), undefined);
  assert.equal(cache.stats().entries, 0);
});

test('the byte bound holds: least recently used entries go first', async () => {
  const body = 'x'.repeat(1000);
  const { cache } = cacheAt(10_000); // room for a few entries of ~2.2 kB each
  const v = await cache.currentVersion();
  for (let i = 0; i < 20; i++) {
    cache.set(`k${i}`, v, entry(body));
    if (i === 1) assert.ok(cache.get('k0', v), 'k0 used again: now the most recent');
    const { bytes, maxBytes } = cache.stats();
    assert.ok(bytes <= maxBytes, `${bytes} bytes held, at most ${maxBytes}`);
  }
  const { entries } = cache.stats();
  assert.ok(entries >= 3 && entries < 20, `${entries} entries`);
  assert.ok(cache.get('k19', v), 'the newest stays');
  assert.equal(cache.get('k1', v), undefined, 'an old one was evicted');
});

test('an entry asked for since it was stored outlasts the older ones nobody asked for', async () => {
  const body = 'x'.repeat(1000);
  const { cache } = cacheAt(10_000);
  const v = await cache.currentVersion();
  // Fill to the bound; the first entry stored is then asked for again.
  let n = 0;
  while (cache.stats().entries === n) cache.set(`k${n++}`, v, entry(body));
  const held = cache.stats().entries; // the last set evicted k0: refill without it
  assert.ok(held >= 3, `${held} entries`);
  const oldest = `k${n - held}`;
  assert.ok(cache.get(oldest, v), 'the oldest held entry, asked for');
  cache.set('new', v, entry(body));
  assert.ok(cache.get(oldest, v), 'kept: it was asked for');
  assert.equal(cache.get(`k${n - held + 1}`, v), undefined, 'the oldest one nobody asked for went');
  assert.ok(cache.get('new', v));
});

test('an entry larger than the whole cache is not stored; 0 bytes switches it off', async () => {
  const small = cacheAt(500).cache;
  const v = await small.currentVersion();
  small.set('big', v, entry('y'.repeat(1000)));
  assert.deepEqual([small.stats().entries, small.stats().bytes], [0, 0]);
  const off = cacheAt(0).cache;
  assert.equal(off.enabled, false);
  off.set('a', await off.currentVersion(), entry('a'));
  assert.equal(off.stats().entries, 0);
  assert.throws(() => new RepresentationCache({ maxBytes: -1, changes: () => [] }), RangeError);
});

test('an entry is not served from its expiresAt on, and then leaves the cache', async () => {
  const { cache } = cacheAt(1 << 20);
  const v = await cache.currentVersion();
  cache.set('a', v, { ...entry('kept until noon'), expiresAt: 1_000 });
  cache.set('b', v, entry('only writes end me'));
  assert.equal(cache.get('a', v, 999)?.body.toString(), 'kept until noon', 'fresh one millisecond before');
  assert.equal(cache.get('a', v, 1_000), undefined, 'not served at the instant it expires');
  assert.equal(cache.get('a', v, 999), undefined, 'dropped: a later request renders it again');
  assert.equal(cache.get('b', v, Number.MAX_SAFE_INTEGER)?.body.toString(), 'only writes end me');
  assert.equal(cache.stats().entries, 1);
});

/** A cache on a feed the test fills: each read answers what was queued since the last. */
function cacheOnFeed() {
  let queued: string[] | 'everything' = [];
  const cache = new RepresentationCache({
    maxBytes: 1 << 20,
    changes: () => {
      const batch = queued;
      queued = [];
      return batch;
    },
  });
  return {
    cache,
    change: (...subjects: string[]) => {
      if (queued !== 'everything') queued.push(...subjects);
    },
    changeEverything: () => (queued = 'everything'),
  };
}

test('a change drops only the renderings that show it (ADR 0088)', () => {
  const { cache, change, changeEverything } = cacheOnFeed();
  const v = cache.currentVersion() as string;
  cache.set('goethe', v, entry('Goethe: Faust'), ['person:1', 'work:7']);
  cache.set('schiller', v, entry('Schiller'), ['person:2']);
  cache.set('home', v, entry('undeclared'));
  change('work:7', 'works');
  const after = cache.currentVersion() as string;
  assert.equal(cache.get('goethe', after), undefined, 'shows work 7');
  assert.equal(cache.get('home', after), undefined, 'declared nothing: any change drops it');
  assert.equal(cache.get('schiller', after)?.body.toString(), 'Schiller', 'shows nothing that changed');
  changeEverything();
  const later = cache.currentVersion() as string;
  assert.equal(cache.get('schiller', later), undefined);
  assert.equal(cache.stats().entries, 0);
});

test('a rendering that raced a change of what it shows is not stored; one that raced another change is', () => {
  const { cache, change } = cacheOnFeed();
  const before = cache.currentVersion() as string; // read before the handler reads its data
  change('person:1');
  const now = cache.currentVersion() as string; // another request saw the write meanwhile
  cache.set('goethe', before, entry('stale'), ['person:1']);
  cache.set('schiller', before, entry('current'), ['person:2']);
  assert.equal(cache.get('goethe', now), undefined);
  assert.equal(cache.get('schiller', now)?.body.toString(), 'current');
});

test('kept responses go with their rendering when a subject it shows changes', () => {
  const { cache, change } = cacheOnFeed();
  const v = cache.currentVersion() as string;
  const rendering = entry('Goethe');
  cache.set('goethe', v, rendering, ['person:1']);
  cache.setWire('\u0001/personen/goethe', 'goethe', v, {
    headers: [],
    payload: rendering.body,
    lastModified: undefined,
    expiresAt: undefined,
  });
  assert.ok(cache.getWire('\u0001/personen/goethe', v));
  change('person:1');
  const after = cache.currentVersion() as string;
  assert.equal(cache.getWire('\u0001/personen/goethe', after), undefined);
  assert.equal(cache.stats().entries, 0);
});

test('misses are counted by why the key was not held (ADR 0105)', () => {
  const { cache, change, changeEverything } = cacheOnFeed();
  const small = new RepresentationCache({ maxBytes: 3_000, changes: () => [] });
  const v = cache.currentVersion() as string;
  cache.get('goethe', v); // never stored: cold
  cache.set('goethe', v, entry('Goethe'), ['person:1', 'work-name:7']);
  cache.set('faust', v, entry('Faust'), ['work:7']);
  cache.set('noon', v, { ...entry('until noon'), expiresAt: 1_000 }, ['person:3']);
  change('work-name:7');
  const v2 = cache.currentVersion() as string;
  cache.get('goethe', v2); // dropped by a work's name
  change('person:1');
  void cache.currentVersion();
  cache.set('goethe', v2, entry('Goethe again'), ['person:1', 'work-name:7']);
  cache.get('goethe', v2); // rendered after the work's name changed, before the person did: not kept
  cache.get('noon', v2, 1_000); // expired
  changeEverything();
  const v3 = cache.currentVersion() as string;
  cache.get('faust', v3); // everything changed
  assert.deepEqual(cache.stats().missesBy, {
    cold: 1,
    'changed work-name': 1,
    'raced person': 1,
    expired: 1,
    everything: 1,
  });
  assert.equal(cache.stats().misses, 5);
  const s = small.currentVersion() as string;
  small.set('a', s, entry('a'.repeat(1000)));
  small.set('b', s, entry('b'.repeat(1000)));
  small.get('a', s); // evicted by b
  assert.deepEqual(small.stats().missesBy, { evicted: 1 });
});

// In-process micro benchmark of what a person read costs after the database: its representation
// in each format prepared as a response sends it (prepareRepresentation: the view, the bytes,
// the ETag, the headers). Not a test: it prints timings. Run: node bench/person-page.bench.ts
//
// To compare two checkouts on a machine whose speed drifts (ADR 0119), run this file from both at
// the same time, one process per core, and compare the two lines of each run, not runs made one
// after the other:
//   node bench/person-page.bench.ts & (cd ../other && node bench/person-page.bench.ts) & wait
import { personRepresentation } from '../src/catalogue/persons/person-view.ts';
import type { Person } from '../src/catalogue/model.ts';
import { prepareRepresentation } from '../src/http/app/respond.ts';
import type { Format } from '../src/http/resource/types.ts';
import { fakeContext } from '../test/kit/catalogue/fakes.ts';
import { seeded } from '../test/kit/seeded.ts';

const PERSONS = 200;
const PAGES_PER_ROUND = 20_000;
const ROUNDS = 7;

const FIRST = ['Anna', 'Dieter', 'Ingrid', 'Otto', 'Jürgen', 'Zoë'];
const LAST = ['Werner', 'Schmidt', 'Müller', 'Wolf', 'Schneider', "O'Brien"];
const WORDS = ['alte', 'Zauberberg', 'Haus', 'große', 'Brief', 'Stunde', 'Judenbuche', '"Gedichte"'];

/**
 * Persons like the benchmark catalogue's: 1–10 works, titles with umlauts and quotes, and a
 * dash (U+2013) in a title of about a third of the persons — a character beyond Latin-1 makes the
 * whole page a two-byte string (ADR 0101).
 */
function persons(): Person[] {
  const random = seeded(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: PERSONS }, (_, i) => {
    const dash = random() < 0.38;
    const werke = Array.from({ length: 1 + Math.floor(random() * 10) }, (_, k) => {
      const titel = `Der ${pick(WORDS)} ${pick(WORDS)}${dash && k === 0 ? ' – Roman' : ''}`;
      return { id: i * 10 + k, slug: `werk-${i}-${k}`, titel };
    });
    return {
      id: i + 1,
      slug: `person-${i + 1}`,
      vorname: pick(FIRST),
      nachname: pick(LAST),
      image: null,
      username: random() < 0.5 ? `user${i}` : null,
      werke,
      isPublic: true,
      updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    };
  });
}

function measure(format: Format, all: readonly Person[]): number[] {
  const ctx = fakeContext({ format, path: '/personen/x' });
  const rc = { ctx, source: 'suffix' as const, clientQuery: new URLSearchParams(), suffix: null };
  let bytes = 0;
  const perPage: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < PAGES_PER_ROUND; i++)
      bytes += prepareRepresentation(personRepresentation(all[i % all.length]!), rc).body.byteLength;
    const used = process.cpuUsage(start);
    // Round 0 warms up (the JIT compiles the views); it is not counted.
    if (round > 0) perPage.push(((used.user + used.system) * 1000) / PAGES_PER_ROUND);
  }
  if (bytes === 0) throw new Error('nothing rendered');
  return perPage.sort((a, b) => a - b);
}

const all = persons();
for (const format of ['json', 'xml', 'html'] as const) {
  const ns = measure(format, all);
  const median = ns[ns.length >> 1]!;
  console.log(
    `person ${format.padEnd(4)} ${(median / 1000).toFixed(2).padStart(7)} µs/page median, ` +
      `${(ns[0]! / 1000).toFixed(2)} min (CPU, ${ROUNDS} rounds of ${PAGES_PER_ROUND.toLocaleString('en')})`,
  );
}

// What is measured: one URL per case, all GETs of public resources (no cookie, no session);
// one case sends HTTP Basic on every request, as an API client does (docs/decisions/0035).
// The deep page is found at run time by following rel=next from the first page.

export interface BenchCase {
  readonly name: string;
  /** Path and query, without the origin. */
  readonly path: string;
  /** Request headers sent with every request of the case. */
  readonly headers?: Readonly<Record<string, string>>;
}

export const PERSON_JSON: BenchCase = { name: 'person JSON', path: '/personen/goethe.json' };
/** The person JSON again, as the demo account goethe sending Basic on every request: with the
 * verified credential remembered it should cost about what the anonymous request does. */
export const PERSON_JSON_BASIC: BenchCase = {
  name: 'person JSON, Basic-authenticated',
  path: '/personen/goethe.json',
  headers: { authorization: `Basic ${Buffer.from('goethe:goethe').toString('base64')}` },
};
export const FIRST_PAGE: BenchCase = { name: 'works list, first page', path: '/werke.json' };

/** The fixed cases; the deep page is added by deepPageCase(). */
export const FIXED_CASES: readonly BenchCase[] = [
  PERSON_JSON,
  PERSON_JSON_BASIC,
  { name: 'person XML', path: '/personen/goethe.xml' },
  { name: 'person HTML', path: '/personen/goethe.html' },
  // As browsers ask (ADR 0014): the compressed variant, kept with the cached representation.
  {
    name: 'person HTML, br',
    path: '/personen/goethe.html',
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  },
  { name: 'person JSON, gzip', path: '/personen/goethe.json', headers: { 'accept-encoding': 'gzip' } },
  { name: 'work HTML', path: '/werke/faust.html' },
  { name: 'work JSON', path: '/werke/faust.json' },
  // Two hits: the full-text index answers at once.
  { name: 'search "faust"', path: '/werke.json?q=faust' },
  // "der" is in more than half of the synthetic titles: the match set is large, a page is small.
  { name: 'search "der" (common word)', path: '/werke.json?q=der' },
  // One class each (docs/decisions/0045-search-plans.md): one letter, a common longer word whose
  // matches sort far from the start of the list, several words, a prefix, no hits at all.
  { name: 'search "d" (one letter)', path: '/werke.json?q=d' },
  { name: 'search "kleine" (common, 6 letters)', path: '/werke.json?q=kleine' },
  { name: 'search "der kleine garten" (words)', path: '/werke.json?q=der+kleine+garten' },
  { name: 'search "gart" (prefix)', path: '/werke.json?q=gart' },
  { name: 'search "zzzz" (no hits)', path: '/werke.json?q=zzzz' },
  FIRST_PAGE,
  { name: 'works list, first page, gzip', path: '/werke.json', headers: { 'accept-encoding': 'gzip' } },
];

/** A JSON list page's `naechste` URL as a path on the JSON suffix URL (the link itself is suffix-free). */
export function jsonPathOf(link: string): string {
  const url = new URL(link);
  const pathname = /\.(json|xml|html)$/.test(url.pathname) ? url.pathname : url.pathname + '.json';
  return pathname + url.search;
}

/**
 * Follows `naechste` from the first works page; returns the pages after 1 and after `depth`
 * links. Page 2 is the fair comparison for the deep page: both carry a cursor, a prev link
 * and its probe, which the first page has not.
 */
export async function keysetCases(origin: string, depth: number): Promise<BenchCase[]> {
  let path = '/werke.json';
  const cases: BenchCase[] = [];
  for (let i = 1; i <= depth; i++) {
    const response = await fetch(origin + path);
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    const body = (await response.json()) as { naechste?: string };
    if (!body.naechste) throw new Error(`the works list ends after ${i} pages, before page ${depth + 1}`);
    path = jsonPathOf(body.naechste);
    if (i === 1 || i === depth) cases.push({ name: `works list, page ${i + 1} (keyset)`, path });
  }
  return cases;
}

/** Fails early, with the status, when a case URL does not answer 200. */
export async function checkCase(origin: string, c: BenchCase): Promise<void> {
  const response = await fetch(origin + c.path, { headers: c.headers ?? {} });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${c.name}: GET ${c.path} answered ${response.status}`);
}

// Every link a representation carries, as the crawler and the base-URL checks need them:
// HTML href/src attributes, XML ref attributes, JSON strings that are URLs, Link headers.
// Regular expressions are enough here: the documents are the server's own, well-formed output.

export type FoundLink = { readonly where: string; readonly url: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Undoes the character references the html/xml writers produce in attribute values. */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** href and src attribute values of an HTML page, as written (root-relative, absolute or fragment). */
export function htmlLinks(html: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const m of html.matchAll(/\s(href|src)\s*=\s*"([^"]*)"/g))
    found.push({ where: `@${m[1]}`, url: decodeAttribute(m[2] ?? '') });
  return found;
}

/** ref attribute values of an XML document. */
export function xmlLinks(xml: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const m of xml.matchAll(/<([\w:-]+)[^>]*\sref="([^"]*)"/g))
    found.push({ where: `<${m[1]} ref>`, url: decodeAttribute(m[2] ?? '') });
  return found;
}

/**
 * Strings in a JSON value that are links: every `url` field, and every other string that
 * looks like an absolute http(s) URL (`image`, `naechste`, the home's `personen`, …).
 */
export function jsonLinks(value: unknown, where = '$'): FoundLink[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonLinks(item, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const found: FoundLink[] = [];
  for (const [key, item] of Object.entries(value)) {
    const at = `${where}.${key}`;
    if (typeof item === 'string' && (key === 'url' || /^https?:/i.test(item)))
      found.push({ where: at, url: item });
    else found.push(...jsonLinks(item, at));
  }
  return found;
}

export type LinkHeader = { readonly rel: string; readonly url: string };

/** Parses `Link: <url>; rel="x", <url>; rel="y"` (the server's own shape: one rel per link). */
export function linkHeaders(header: string | null): LinkHeader[] {
  if (!header) return [];
  const links: LinkHeader[] = [];
  for (const m of header.matchAll(/<([^>]*)>\s*((?:;\s*[\w*-]+\s*=\s*(?:"[^"]*"|[^;,\s]+)\s*)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(m[2] ?? '')?.[1] ?? '';
    links.push({ rel, url: m[1] ?? '' });
  }
  return links;
}

/** The target of the Link header with `rel`, or undefined. */
export function linkTarget(header: string | null, rel: string): string | undefined {
  return linkHeaders(header).find((l) => l.rel === rel)?.url;
}

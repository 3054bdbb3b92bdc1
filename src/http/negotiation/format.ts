// Choosing the representation (docs/representations.md): suffix > ?format= > Accept. Pure functions, no
// Fastify objects, so the table tests can run them directly.
import Negotiator from 'negotiator';
import type { Format } from '../resource/types.ts';

/** Where the format came from. Only 'accept' responses vary by the Accept header. */
export type FormatSource = 'suffix' | 'query' | 'accept';

export type FormatChoice =
  | { readonly ok: true; readonly format: Format; readonly source: FormatSource }
  | { readonly ok: false; readonly reason: 'not-acceptable' };

/** The media type each format is sent with. */
export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

// Offered in this order, so ties (`*/*`, `text/*`) go to the earlier entry: HTML first.
// The charset parameter lets `application/json;charset=utf-8` match while `;charset=latin1`
// does not (negotiator requires every parameter of a range to match the offer).
const OFFERS: readonly { type: string; format: Format; alias: boolean }[] = [
  { type: 'text/html', format: 'html', alias: false },
  { type: 'application/xhtml+xml', format: 'html', alias: true },
  { type: 'application/xml', format: 'xml', alias: false },
  { type: 'text/xml', format: 'xml', alias: true },
  { type: 'application/json', format: 'json', alias: false },
];
const OFFERED = OFFERS.map((o) => `${o.type};charset=utf-8`);

/**
 * Browsers send about ten ranges. Negotiator's cost grows with ranges × offers, so a hostile
 * 16 KiB header of a thousand ranges would cost milliseconds per request: only the first
 * MAX_RANGES count (bench/negotiation.bench.ts).
 */
export const MAX_RANGES = 32;

export function firstRanges(header: string): string {
  return header.split(',', MAX_RANGES).join(',');
}

function bareType(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Negotiates by the Accept header alone: q-value, then specificity, then header order.
 * - absent, empty or only whitespace: like `*` / `*` → html
 * - no parseable media range at all (`Accept: garbage`): not acceptable → 406 (as Rails does
 *   for an invalid Accept header; Apache has no rule), see docs/lifecycle.md
 * - an alias (application/xhtml+xml, text/xml) counts only when the client names it, so that
 *   `text/html;q=0, *` + `/*` does not sneak HTML back in through the xhtml wildcard match.
 */
export function negotiateAccept(accept: string | undefined): Format | null {
  if (accept === undefined || accept.trim() === '') return 'html';
  const negotiator = new Negotiator({ headers: { accept: firstRanges(accept) } });
  const named = new Set(negotiator.mediaTypes().map(bareType));
  for (const offered of negotiator.mediaTypes(OFFERED)) {
    const offer = OFFERS[OFFERED.indexOf(offered)];
    if (offer === undefined) continue;
    if (offer.alias && !named.has(offer.type)) continue;
    return offer.format;
  }
  return null;
}

export function parseFormat(value: string | null | undefined): Format | null {
  return value === 'html' || value === 'xml' || value === 'json' ? value : null;
}

export interface FormatInputs {
  /** The `.html`/`.xml`/`.json` suffix the request path ended with, if any. */
  readonly suffix: Format | null;
  /** A valid `?format=` value (an invalid one is a 404 before negotiation runs). */
  readonly formatParam: Format | null;
  readonly accept: string | undefined;
}

export function chooseFormat(inputs: FormatInputs): FormatChoice {
  if (inputs.suffix) return { ok: true, format: inputs.suffix, source: 'suffix' };
  if (inputs.formatParam) return { ok: true, format: inputs.formatParam, source: 'query' };
  const format = negotiateAccept(inputs.accept);
  return format ? { ok: true, format, source: 'accept' } : { ok: false, reason: 'not-acceptable' };
}

/**
 * The format of an error body: like any representation, but never a 406 of its own. A client
 * that accepts only problem types gets them; one that accepts nothing we have gets HTML (as
 * Apache answers a 406 with an HTML variant list).
 */
export function chooseErrorFormat(inputs: FormatInputs): {
  readonly format: Format;
  readonly source: FormatSource;
} {
  const choice = chooseFormat(inputs);
  if (choice.ok) return choice;
  const problem = new Negotiator({ headers: { accept: firstRanges(inputs.accept ?? '') } }).mediaType(
    PROBLEM_TYPES,
  );
  return {
    format: problem === 'application/problem+xml' ? 'xml' : problem ? 'json' : 'html',
    source: 'accept',
  };
}

const PROBLEM_TYPES = ['application/problem+json', 'application/problem+xml'];

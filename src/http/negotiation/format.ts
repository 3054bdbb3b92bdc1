// Choosing the representation (docs/representations.md): suffix > ?format= > Accept. Pure functions, no
// Fastify objects, so the table tests can run them directly.
import Negotiator from 'negotiator';
import type { CoreFormat, ExtraFormat, Format } from '../resource/types.ts';

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
  ris: 'application/x-research-info-systems; charset=utf-8',
  bib: 'application/x-bibtex; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};

/** A format's media type without parameters, as `type=` of a link names it. */
export function mediaTypeOf(format: Format): string {
  return CONTENT_TYPES[format].split(';')[0]!;
}

// Offered in this order, so ties (`*/*`, `text/*`) go to the earlier entry: HTML first, and the
// extra formats (offered only by the resources that have them) after the three of every resource.
// The charset parameter lets `application/json;charset=utf-8` match while `;charset=latin1`
// does not (negotiator requires every parameter of a range to match the offer).
const OFFERS: readonly { type: string; format: Format; alias: boolean }[] = [
  { type: 'text/html', format: 'html', alias: false },
  { type: 'application/xhtml+xml', format: 'html', alias: true },
  { type: 'application/xml', format: 'xml', alias: false },
  { type: 'text/xml', format: 'xml', alias: true },
  { type: 'application/json', format: 'json', alias: false },
  { type: 'application/x-research-info-systems', format: 'ris', alias: false },
  { type: 'application/x-bibtex', format: 'bib', alias: false },
  { type: 'application/atom+xml', format: 'atom', alias: false },
];
const CORE: readonly Format[] = ['html', 'xml', 'json'];

interface Offered {
  readonly offers: typeof OFFERS;
  /** What negotiator matches: each offer's type with `;charset=utf-8`. */
  readonly types: readonly string[];
}

function offersOf(extras: readonly ExtraFormat[]): Offered {
  const offers = OFFERS.filter(
    (o) => CORE.includes(o.format) || (extras as readonly Format[]).includes(o.format),
  );
  return { offers, types: offers.map((o) => `${o.type};charset=utf-8`) };
}

const OFFERED_CORE = offersOf([]);
// A resource's `formats` is one array for the server's life: its offers are built once.
const offeredBy = new WeakMap<readonly ExtraFormat[], Offered>();

function offered(extras: readonly ExtraFormat[]): Offered {
  if (extras.length === 0) return OFFERED_CORE;
  let found = offeredBy.get(extras);
  if (!found) offeredBy.set(extras, (found = offersOf(extras)));
  return found;
}

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
export function negotiateAccept(
  accept: string | undefined,
  extras: readonly ExtraFormat[] = [],
): Format | null {
  if (accept === undefined || accept.trim() === '') return 'html';
  const { offers, types } = offered(extras);
  const negotiator = new Negotiator({ headers: { accept: firstRanges(accept) } });
  const named = new Set(negotiator.mediaTypes().map(bareType));
  for (const type of negotiator.mediaTypes(types)) {
    const offer = offers[types.indexOf(type)];
    if (offer === undefined) continue;
    if (offer.alias && !named.has(offer.type)) continue;
    return offer.format;
  }
  return null;
}

/** A suffix or `?format=` value naming a format some resource has (whether this one has it is the dispatcher's question). */
export function parseFormat(value: string | null | undefined): Format | null {
  return value !== null && value !== undefined && Object.hasOwn(CONTENT_TYPES, value)
    ? (value as Format)
    : null;
}

/** An extra format the resource does not offer, named by suffix or `?format=`: no such URL (404). */
export function unofferedFormat(inputs: FormatInputs, extras: readonly ExtraFormat[] = []): boolean {
  const named = inputs.suffix ?? inputs.formatParam;
  return named !== null && !CORE.includes(named) && !(extras as readonly Format[]).includes(named);
}

export interface FormatInputs {
  /** The `.html`/`.xml`/`.json` (or an extra format's) suffix the request path ended with, if any. */
  readonly suffix: Format | null;
  /** A valid `?format=` value (an invalid one is a 404 before negotiation runs). */
  readonly formatParam: Format | null;
  readonly accept: string | undefined;
}

/** `extras`: the extra formats the resource offers (a suffix naming another is the dispatcher's 404). */
export function chooseFormat(inputs: FormatInputs, extras: readonly ExtraFormat[] = []): FormatChoice {
  if (inputs.suffix) return { ok: true, format: inputs.suffix, source: 'suffix' };
  if (inputs.formatParam) return { ok: true, format: inputs.formatParam, source: 'query' };
  const format = negotiateAccept(inputs.accept, extras);
  return format ? { ok: true, format, source: 'accept' } : { ok: false, reason: 'not-acceptable' };
}

/**
 * The format of an error body: like any representation, but never a 406 of its own. A client
 * that accepts only problem types gets them; one that accepts nothing we have gets HTML (as
 * Apache answers a 406 with an HTML variant list). Problems have no RIS, BibTeX or Atom form:
 * a request for one (`/werke/x.ris` of an unknown work) is answered like that too.
 */
export function chooseErrorFormat(inputs: FormatInputs): {
  readonly format: CoreFormat;
  readonly source: FormatSource;
} {
  const asked = chooseFormat(inputs);
  // An extra format named by suffix or `?format=`: the Accept header decides alone.
  const choice =
    asked.ok && !isCore(asked.format) ? chooseFormat({ ...inputs, suffix: null, formatParam: null }) : asked;
  if (choice.ok && isCore(choice.format)) return { format: choice.format, source: choice.source };
  const problem = new Negotiator({ headers: { accept: firstRanges(inputs.accept ?? '') } }).mediaType(
    PROBLEM_TYPES,
  );
  return {
    format: problem === 'application/problem+xml' ? 'xml' : problem ? 'json' : 'html',
    source: 'accept',
  };
}

const PROBLEM_TYPES = ['application/problem+json', 'application/problem+xml'];

function isCore(format: Format): format is CoreFormat {
  return CORE.includes(format);
}

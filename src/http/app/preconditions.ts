// Preconditions of PUT/DELETE (RFC 9110 §13, RFC 6585 §3, docs/methods.md). A client proves it saw the
// current state with `If-Match` (the ETag of ANY representation it fetched: HTML in either
// language, XML or JSON — strong comparison) or, from an HTML form, the hidden `_version` field
// (versionOf: the JSON variant's ETag without quotes, which does not depend on language or on
// who is logged in). Stale → 412; nothing at all while preconditions are required → 428.
import { FORMATS, type Representation, type RequestContext } from '../resource/types.ts';
import { HttpError } from '../errors/http-error.ts';
import { etagOf, strongMatch } from '../conditional/conditional.ts';
import { renderRepresentation } from '../representation/render.ts';

export const VERSION_FIELD = '_version';

type AnyRepresentation = Representation<never> | Representation<unknown>;

export interface PreconditionInput {
  /** The effective method (after a form's `_method` override). */
  readonly method: string;
  readonly ifMatch: string | undefined;
  readonly ifNoneMatch: string | undefined;
  /** The request body; its `_version` field counts as a precondition. */
  readonly body: unknown;
  readonly required: boolean;
}

/** Every format and language a representation of a writable resource is sent in. */
const VARIANTS = FORMATS.flatMap((format) => (['de', 'en'] as const).map((lang) => ({ format, lang })));

/** The strong ETags of every representation of `rep` the layer could have sent. */
export function variantEtags(rep: AnyRepresentation, ctx: RequestContext): string[] {
  const tags = VARIANTS.map(({ format, lang }) =>
    etagOf(renderRepresentation(rep as Representation<unknown>, { ...ctx, format, lang })),
  );
  return [...new Set(tags)];
}

/** The form version token: the JSON representation's ETag without its quotes. */
export function versionOf(rep: AnyRepresentation, ctx: RequestContext): string {
  return etagOf(
    renderRepresentation(rep as Representation<unknown>, { ...ctx, format: 'json', lang: 'de' }),
  ).slice(1, -1);
}

function formVersion(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return Object.hasOwn(body, VERSION_FIELD) ? (body as Record<string, unknown>)[VERSION_FIELD] : undefined;
}

const stale = (detail: string) => new HttpError('SHELFMARK_PRECONDITION_FAILED', { detail });

export function checkPreconditions(
  input: PreconditionInput,
  current: AnyRepresentation | null,
  ctx: RequestContext,
): void {
  const version = formVersion(input.body);
  const ifMatch = input.ifMatch?.trim();
  if (input.ifNoneMatch?.trim() === '*' && current !== null)
    throw stale('The resource already exists (If-None-Match: *).');
  if (ifMatch !== undefined && ifMatch !== '') {
    if (current === null) throw stale('The resource does not exist, so no If-Match can match.');
    if (ifMatch !== '*' && !variantEtags(current, ctx).some((tag) => strongMatch(ifMatch, tag)))
      throw stale('The resource has changed since you fetched it (If-Match). Fetch it again.');
  }
  if (version !== undefined) {
    if (current === null) throw stale('The resource no longer exists.');
    if (typeof version !== 'string' || version !== versionOf(current, ctx))
      throw stale('Someone else has changed this in the meantime. Reload the form and try again.');
  }
  const unsafe = input.method === 'PUT' || input.method === 'PATCH' || input.method === 'DELETE';
  // Creating with PUT has nothing to match (If-None-Match: * is the optional guard).
  if (input.required && unsafe && current !== null && !ifMatch && version === undefined) {
    throw new HttpError('SHELFMARK_PRECONDITION_REQUIRED', {
      detail: `${input.method} needs an If-Match header with the ETag you last fetched (or a form's ${VERSION_FIELD} field).`,
    });
  }
}

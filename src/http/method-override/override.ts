// A form asks for PUT or DELETE with a hidden `_method` field (docs/methods.md), honoured only on
// a POSTed form: never from the query string or JSON/XML. The preHandler calls it after the CSRF
// check, so CSRF checks the real POST and the access log keeps %m = POST.
import { HttpError } from '../errors/index.ts';

export const METHOD_FIELD = '_method';
export type OverridableMethod = 'PUT' | 'DELETE';
const ALLOWED: readonly string[] = ['PUT', 'DELETE'];

export interface OverrideInput {
  readonly method: string;
  /** What the request's Content-Type announces (app's RequestState, body/media-type.ts). */
  readonly bodyType: 'form' | 'json' | 'xml' | null;
  /** The parsed body (a field object for forms). */
  readonly body: unknown;
}

/**
 * `PUT`/`DELETE` when a form POST asks for it, otherwise null (no override).
 * `_method=POST` (or an empty value) is a no-op; any other value → 400.
 */
export function formMethodOverride(input: OverrideInput): OverridableMethod | null {
  if (input.method !== 'POST' || input.bodyType !== 'form') return null;
  const body = input.body;
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, METHOD_FIELD)) return null;
  const raw = (body as Record<string, unknown>)[METHOD_FIELD];
  if (typeof raw !== 'string') {
    throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: `The ${METHOD_FIELD} field must be given once.` });
  }
  const wanted = raw.trim().toUpperCase();
  if (wanted === '' || wanted === 'POST') return null;
  if (!ALLOWED.includes(wanted)) {
    throw new HttpError('SHELFMARK_BAD_REQUEST', {
      detail: `A form can ask for PUT or DELETE with ${METHOD_FIELD}, not ${raw}.`,
    });
  }
  return wanted as OverridableMethod;
}

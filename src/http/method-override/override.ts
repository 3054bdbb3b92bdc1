// HTML forms can only GET and POST, so a form asks for PUT or DELETE with a hidden
// `_method` field (design §6). Only honoured on a POST whose body is a form: never from the
// query string (a link or an <img> could then delete), never from JSON or XML (API clients can
// send the real method).
import { HttpError } from '../errors/index.ts';

export const METHOD_FIELD = '_method';
export type OverridableMethod = 'PUT' | 'DELETE';
const ALLOWED: readonly string[] = ['PUT', 'DELETE'];

export interface OverrideInput {
  readonly method: string;
  /** The request's Content-Type header. */
  readonly contentType: string | undefined;
  /** The parsed body (a field object for forms). */
  readonly body: unknown;
}

function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * `PUT`/`DELETE` when a form POST asks for it, otherwise null (no override).
 * `_method=POST` (or an empty value) is a no-op; any other value → 400.
 */
export function formMethodOverride(input: OverrideInput): OverridableMethod | null {
  if (input.method !== 'POST' || !isForm(input.contentType)) return null;
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

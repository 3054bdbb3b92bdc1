// Generic field validation for writers: a spec per field, every problem reported at once.
// checkFields returns the problems with a code and limit, so an HTML form can say them in the
// reader's language next to each input and an API answer can list them (the caller builds
// the 422).
// Strings are trimmed; an empty or absent value counts as missing, so an optional field left
// blank in a form is simply absent from the result (PUT then clears it).
import { isFields, type FieldValue } from './fields.ts';

interface Common {
  readonly required?: boolean;
  /** The field may repeat; the result is then always an array. */
  readonly many?: boolean;
}
export type FieldRule =
  | (Common & { readonly type: 'string'; readonly minLength?: number; readonly maxLength?: number })
  | (Common & { readonly type: 'int'; readonly min?: number; readonly max?: number })
  | (Common & { readonly type: 'url-or-slug' });
export type FieldSpec = Readonly<Record<string, FieldRule>>;

type Single<R> = R extends { type: 'int' } ? number : string;
type ValueOf<R> = R extends { many: true } ? Single<R>[] : Single<R>;
export type Validated<S extends FieldSpec> = {
  -readonly [K in keyof S as S[K] extends { required: true } ? K : never]: ValueOf<S[K]>;
} & { -readonly [K in keyof S as S[K] extends { required: true } ? never : K]?: ValueOf<S[K]> };

export type ProblemCode =
  'required' | 'type' | 'single' | 'too_short' | 'too_long' | 'too_small' | 'too_large' | 'format';
export interface FieldProblem {
  readonly field: string;
  readonly code: ProblemCode;
  readonly message: string;
  readonly limit?: number;
}

/** A slug as the URL space allows it: lower-case ASCII words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function isUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

type Check =
  { ok: true; value: string | number } | { ok: false; code: ProblemCode; message: string; limit?: number };

function checkOne(rule: FieldRule, raw: FieldValue): Check {
  if (rule.type === 'int') {
    const n =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d{1,16}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n)) return { ok: false, code: 'type', message: 'must be a whole number' };
    if (rule.min !== undefined && n < rule.min)
      return { ok: false, code: 'too_small', message: `must be at least ${rule.min}`, limit: rule.min };
    if (rule.max !== undefined && n > rule.max)
      return { ok: false, code: 'too_large', message: `must be at most ${rule.max}`, limit: rule.max };
    return { ok: true, value: n };
  }
  if (typeof raw !== 'string') return { ok: false, code: 'type', message: 'must be text' };
  if (rule.type === 'url-or-slug') {
    return SLUG_PATTERN.test(raw) || (raw.length <= 2048 && isUrl(raw))
      ? { ok: true, value: raw }
      : {
          ok: false,
          code: 'format',
          message: 'must be an http(s) URL or a slug (lower-case letters, digits, -)',
        };
  }
  const length = [...raw].length;
  if (rule.minLength !== undefined && length < rule.minLength)
    return {
      ok: false,
      code: 'too_short',
      message: `must be at least ${rule.minLength} characters`,
      limit: rule.minLength,
    };
  if (rule.maxLength !== undefined && length > rule.maxLength)
    return {
      ok: false,
      code: 'too_long',
      message: `must be at most ${rule.maxLength} characters`,
      limit: rule.maxLength,
    };
  return { ok: true, value: raw };
}

const isBlank = (v: FieldValue | undefined): boolean => v === undefined || v === null || v === '';
const trimmed = (v: FieldValue): FieldValue => (typeof v === 'string' ? v.trim() : v);

export type FieldCheck<S extends FieldSpec> =
  | { readonly ok: true; readonly value: Validated<S> }
  | { readonly ok: false; readonly problems: readonly FieldProblem[] };

/** Every problem of a body against a spec, or the validated (trimmed, typed) values. */
export function checkFields<S extends FieldSpec>(body: unknown, spec: S): FieldCheck<S> {
  if (body !== undefined && body !== null && !isFields(body)) {
    return {
      ok: false,
      problems: [{ field: '', code: 'type', message: 'the body must be an object of fields' }],
    };
  }
  const fields = body ?? {};
  const result: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [field, rule] of Object.entries(spec)) {
    const raw = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (Array.isArray(raw) && !rule.many) {
      problems.push({ field, code: 'single', message: 'must be given once' });
      continue;
    }
    const values = (Array.isArray(raw) ? raw : [raw])
      .map((v) => (v === undefined ? v : trimmed(v)))
      .filter((v) => !isBlank(v));
    if (values.length === 0) {
      if (rule.required) problems.push({ field, code: 'required', message: 'is required' });
      else if (rule.many) result[field] = [];
      continue;
    }
    const checked = values.map((v) => checkOne(rule, v as FieldValue));
    const bad = checked.find((c) => !c.ok);
    if (bad && !bad.ok)
      problems.push({
        field,
        code: bad.code,
        message: bad.message,
        ...(bad.limit !== undefined && { limit: bad.limit }),
      });
    else result[field] = rule.many ? checked.map((c) => c.ok && c.value) : checked[0]?.ok && checked[0].value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: result as Validated<S> };
}

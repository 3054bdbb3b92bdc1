// Field problems of a write: the body layer's (checkFields) plus the catalogue's own checks
// (image address, person references, year order), answered as one 422 with every problem.
import type { FieldProblem } from '../../http/body/index.ts';
import { HttpError } from '../shared/index.ts';

/** A field problem; `local` carries the German and English text for the HTML form. */
export type WriteProblem = FieldProblem & { readonly local?: { readonly de: string; readonly en: string } };

export function problem(field: string, message: string, local: { de: string; en: string }): WriteProblem {
  return { field, code: 'format', message, local };
}

/** The 422 for API clients: problem details with `errors: [{field, detail}]`. */
export function validationError(problems: readonly WriteProblem[]): HttpError {
  const detail = problems.map((p) => `${p.field || 'body'} ${p.message}`).join('; ');
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: `The request has invalid fields: ${detail}.`,
    extensions: { errors: problems.map((p) => ({ field: p.field, detail: p.message })) },
  });
}

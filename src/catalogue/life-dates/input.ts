// Reads life dates from a request body (form, JSON or XML: the representation's field names).
// Writable: geboren, gestorben (whole years; blank or absent: unknown). `person` is derived
// from the URL and ignored on input, so a client can PUT back what it got from GET.
import type { FieldSpec } from '../../http/body/index.ts';
import { checkAll, inFieldOrder, problem } from '../writes/index.ts';
import type { InputRead } from '../writes/index.ts';
import type { LifeDatesInput } from './store.ts';

export const YEAR_MIN = -3000;
export const YEAR_MAX = 2100;

export const LIFE_DATES_FIELDS = {
  geboren: { type: 'int', min: YEAR_MIN, max: YEAR_MAX },
  gestorben: { type: 'int', min: YEAR_MIN, max: YEAR_MAX },
} as const satisfies FieldSpec;

export const LIFE_DATES_FIELD_NAMES = Object.keys(LIFE_DATES_FIELDS);

export function readLifeDates(body: unknown): InputRead<LifeDatesInput> {
  const { values: v, problems } = checkAll(body, LIFE_DATES_FIELDS, []);
  if (v.geboren !== undefined && v.gestorben !== undefined && v.gestorben < v.geboren) {
    problems.push(
      problem('gestorben', 'must not be before geboren', {
        de: 'Das Todesjahr liegt vor dem Geburtsjahr.',
        en: 'The year of death is before the year of birth.',
      }),
    );
  }
  if (problems.length > 0) return { ok: false, problems: inFieldOrder(problems, LIFE_DATES_FIELD_NAMES) };
  return { ok: true, input: { geboren: v.geboren ?? null, gestorben: v.gestorben ?? null } };
}

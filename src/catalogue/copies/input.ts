// Reads a copy from a request body (form, JSON or XML: the representation's field names).
// Writable: signatur, barcode, standort (required) and vermisst (true/false; a form's checkbox).
// `werk`, `nummer` and `status` come from the URL and the loans and are ignored on input, so a
// client can PUT back what it got from GET (and PATCH applies to that).
import type { FieldSpec } from '../../http/body/index.ts';
import { checkAll, inFieldOrder, problem, type InputRead } from '../writes/index.ts';
import type { CopyInput } from './model.ts';

export const SIGNATUR_MAX = 100;
export const BARCODE_MAX = 64;
export const STANDORT_MAX = 100;

export const COPY_FIELDS = {
  signatur: { type: 'string', required: true, maxLength: SIGNATUR_MAX },
  barcode: { type: 'string', required: true, maxLength: BARCODE_MAX },
  standort: { type: 'string', required: true, maxLength: STANDORT_MAX },
} as const satisfies FieldSpec;

export const COPY_FIELD_NAMES = [...Object.keys(COPY_FIELDS), 'vermisst'];

const BARCODE = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** true/false as JSON, XML or a form send it; absent or empty: false. */
function flag(raw: unknown): boolean | 'bad' {
  // A form sends the hidden "false" and, when ticked, the checkbox's "true" after it: the last wins.
  if (Array.isArray(raw)) return raw.length > 0 && raw.length <= 2 ? flag(raw.at(-1)) : 'bad';
  if (raw === undefined || raw === null || raw === '' || raw === false) return false;
  if (raw === true) return true;
  if (typeof raw !== 'string') return 'bad';
  const text = raw.trim().toLowerCase();
  if (['true', 'on', '1', 'ja'].includes(text)) return true;
  if (['false', 'off', '0', 'nein', ''].includes(text)) return false;
  return 'bad';
}

export function readCopy(body: unknown): InputRead<CopyInput> {
  const { values: v, problems } = checkAll(body, COPY_FIELDS, ['signatur', 'barcode', 'standort']);
  if (v.barcode !== undefined && !BARCODE.test(v.barcode))
    problems.push(
      problem('barcode', 'must be letters, digits and hyphens', {
        de: 'Ein Barcode besteht aus Buchstaben, Ziffern und Bindestrichen.',
        en: 'A barcode is letters, digits and hyphens.',
      }),
    );
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const vermisst = flag(Object.hasOwn(fields, 'vermisst') ? fields.vermisst : undefined);
  if (vermisst === 'bad')
    problems.push(
      problem('vermisst', 'must be true or false', {
        de: 'Bitte „ja“ oder „nein“.',
        en: 'Please true or false.',
      }),
    );
  if (problems.length > 0 || vermisst === 'bad')
    return { ok: false, problems: inFieldOrder(problems, COPY_FIELD_NAMES) };
  return {
    ok: true,
    input: { signatur: v.signatur!, barcode: v.barcode!, standort: v.standort!, vermisst },
  };
}

// Reading the rules' request bodies (form, JSON or XML; the representation's field names).
// Item type: `code` (creating only), `bezeichnung`, `bezeichnungEn`, `ausleihbar`
// (true/false; a form's unticked checkbox: false), `leihfristTage`, `verlaengerungen`,
// `hoechstens` (blank or null: the default). Closed day: `tag` (creating through the list),
// `anlass`.
import type { FieldSpec } from '../../http/body/index.ts';
import { checkAll, inFieldOrder } from '../writes/index.ts';
import { problem, type WriteProblem } from '../writes/index.ts';
import { isDay } from './calendar.ts';
import type { ItemTypeInput } from './editing-store.ts';
import { rulesStrings as s } from './editing-strings.ts';

const local = (pick: (t: ReturnType<typeof s>) => string) => ({ de: pick(s('de')), en: pick(s('en')) });

export const CODE_PATTERN = /^[a-z0-9][a-z0-9-]{0,29}$/;

export const ITEM_TYPE_FIELDS = {
  bezeichnung: { type: 'string', required: true, maxLength: 100 },
  bezeichnungEn: { type: 'string', required: true, maxLength: 100 },
  leihfristTage: { type: 'int', min: 1, max: 365 },
  verlaengerungen: { type: 'int', min: 0, max: 99 },
  hoechstens: { type: 'int', min: 1, max: 999 },
} as const satisfies FieldSpec;
const ITEM_TYPE_ORDER = [
  'code',
  'bezeichnung',
  'bezeichnungEn',
  'ausleihbar',
  ...Object.keys(ITEM_TYPE_FIELDS),
];

export const CLOSED_DAY_FIELDS = {
  tag: { type: 'string', maxLength: 10 },
  anlass: { type: 'string', maxLength: 200 },
} as const satisfies FieldSpec;

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** The item type's code as sent (creating), or a problem. */
export function readCode(body: unknown): string | WriteProblem {
  const raw = field(body, 'code');
  const code = typeof raw === 'string' ? raw.trim() : '';
  if (code === '')
    return { field: 'code', code: 'required', message: 'is required', local: local((t) => t.badCode) };
  return CODE_PATTERN.test(code)
    ? code
    : problem(
        'code',
        'must be lower-case letters, digits and -',
        local((t) => t.badCode),
      );
}

export function readItemType(
  body: unknown,
  form: boolean,
): { input?: ItemTypeInput; problems: WriteProblem[] } {
  const { values: v, problems } = checkAll(body, ITEM_TYPE_FIELDS, ['bezeichnung', 'bezeichnungEn']);
  const raw = field(body, 'ausleihbar');
  let lendable: boolean | undefined;
  if (raw === true || raw === 'true') lendable = true;
  else if (raw === false || raw === 'false' || (form && raw === undefined)) lendable = false;
  else
    problems.push(
      raw === undefined
        ? { field: 'ausleihbar', code: 'required', message: 'is required', local: local((t) => t.badBoolean) }
        : problem(
            'ausleihbar',
            'must be true or false',
            local((t) => t.badBoolean),
          ),
    );
  if (
    problems.length > 0 ||
    lendable === undefined ||
    v.bezeichnung === undefined ||
    v.bezeichnungEn === undefined
  )
    return { problems: inFieldOrder(problems, ITEM_TYPE_ORDER) };
  return {
    input: {
      nameDe: v.bezeichnung,
      nameEn: v.bezeichnungEn,
      lendable,
      loanDays: v.leihfristTage ?? null,
      renewals: v.verlaengerungen ?? null,
      maxLoans: v.hoechstens ?? null,
    },
    problems: [],
  };
}

/** A closed day's `tag` (when `withDay`) and `anlass`. */
export function readClosedDay(
  body: unknown,
  withDay: boolean,
): { day?: string; reason?: string; problems: WriteProblem[] } {
  const { values: v, problems } = checkAll(body, CLOSED_DAY_FIELDS, ['anlass']);
  if (withDay && !problems.some((p) => p.field === 'tag')) {
    if (v.tag === undefined)
      problems.push({
        field: 'tag',
        code: 'required',
        message: 'is required',
        local: local((t) => t.badDay),
      });
    else if (!isDay(v.tag))
      problems.push(
        problem(
          'tag',
          'must be a day written YYYY-MM-DD',
          local((t) => t.badDay),
        ),
      );
  }
  if (problems.length > 0) return { problems: inFieldOrder(problems, ['tag', 'anlass']) };
  return { ...(withDay && { day: v.tag }), reason: v.anlass ?? '', problems: [] };
}

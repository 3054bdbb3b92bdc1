// The request bodies of the writes, for /openapi.json (ADR 0074). Where a writer validates with a
// field spec (checkFields), its schema is derived from that spec, so the description cannot
// drift from the check; the few writers that read their fields by hand (borrow, hold, check-in,
// account, password, log-in) are described here from their constants, and the API contract
// tests send their traffic through a validating proxy to keep them honest.
import {
  fieldSpecFormSchema,
  fieldSpecJsonSchema,
  type FieldSpec,
  type JsonSchema,
} from '../../http/body/index.ts';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  ROLES,
  MAX_EMAIL_LENGTH,
  NOTICE_LANGUAGES,
} from '../accounts/index.ts';
import { COPY_FIELDS } from '../copies/index.ts';
import { LIFE_DATES_FIELDS } from '../life-dates/index.ts';
import { PERSON_FIELDS } from '../persons/index.ts';
import { CLOSED_DAY_FIELDS, CODE_PATTERN, ITEM_TYPE_FIELDS } from '../rules/index.ts';
import { RETURN_FIELD } from '../session/index.ts';
import { WORK_FIELDS } from '../works/index.ts';

/** One write's body: the JSON fields, and the same fields as a form sends them. */
export interface BodySchema {
  readonly json: JsonSchema;
  readonly form: JsonSchema;
  /** The write works without a body (a renewal is a bare POST). */
  readonly optional?: boolean;
}

function fromSpec(spec: FieldSpec, extra: Record<string, JsonSchema> = {}): BodySchema {
  const json = fieldSpecJsonSchema(spec);
  const form = fieldSpecFormSchema(spec);
  const add = (schema: JsonSchema, more: Record<string, JsonSchema>) => ({
    ...schema,
    properties: { ...(schema.properties as object), ...more },
  });
  return { json: add(json, extra), form: add(form, extra) };
}

/**
 * The same fields for JSON and a form: plain strings, booleans as "true"/"false" in a form
 * (where an unticked checkbox sends nothing, so a form may require fewer).
 */
function byHand(
  properties: Record<string, JsonSchema>,
  required: readonly string[],
  formRequired: readonly string[] = required,
): BodySchema {
  const textual = (schema: JsonSchema): JsonSchema =>
    schema.type === 'boolean' ? { type: 'string', enum: ['true', 'false'] } : schema;
  const object = (props: Record<string, JsonSchema>, names: readonly string[]) => ({
    type: 'object',
    properties: props,
    ...(names.length > 0 && { required: [...names] }),
  });
  return {
    json: object(properties, required),
    form: object(
      Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, textual(v)])),
      formRequired,
    ),
  };
}

const link = { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] };
const WERK_REF: JsonSchema = {
  description:
    "The work: its URL (absolute or root-relative, readable or script-style) or its slug; JSON may send the representation's link object.",
  anyOf: [{ type: 'string', minLength: 1, maxLength: 2048 }, link],
};
const EXEMPLAR_REF: JsonSchema = {
  description:
    "The copy to lend (ADR 0082): its URL, the representation's link object, or its barcode; without it the first free copy (or the one kept for this member).",
  anyOf: [{ type: 'string', minLength: 1, maxLength: 2048 }, link],
};
const password = (description: string): JsonSchema => ({
  type: 'string',
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  description,
});

/** An item type's fields (ADR 0093); `code` only when creating. Blank numbers: the defaults. */
function itemTypeBody(withCode: boolean): BodySchema {
  const count = (rule: { min: number; max: number }, description: string): JsonSchema => ({
    type: ['integer', 'null'],
    minimum: rule.min,
    maximum: rule.max,
    description,
  });
  const f = ITEM_TYPE_FIELDS;
  const text = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
  const body = byHand(
    {
      ...(withCode && {
        code: { type: 'string', pattern: CODE_PATTERN.source, description: 'Fixed once created.' },
      }),
      bezeichnung: text(f.bezeichnung.maxLength),
      bezeichnungEn: text(f.bezeichnungEn.maxLength),
      ausleihbar: { type: 'boolean' },
      leihfristTage: count(f.leihfristTage, 'Loan period in days; null: the configured default.'),
      verlaengerungen: count(f.verlaengerungen, 'Renewals; null: SHELFMARK_MAX_RENEWALS.'),
      hoechstens: count(f.hoechstens, 'Open loans of this type per member; null: only the overall limit.'),
    },
    [...(withCode ? ['code'] : []), 'bezeichnung', 'bezeichnungEn', 'ausleihbar'],
    [...(withCode ? ['code'] : []), 'bezeichnung', 'bezeichnungEn'],
  );
  // A form sends the numbers as text, and a blank one for the default.
  const digits: JsonSchema = { type: 'string', pattern: '^[0-9]*$' };
  const formProperties = {
    ...(body.form.properties as Record<string, JsonSchema>),
    leihfristTage: digits,
    verlaengerungen: digits,
    hoechstens: digits,
  };
  return { ...body, form: { ...body.form, properties: formProperties } };
}

export const BODIES = {
  person: fromSpec(PERSON_FIELDS),
  lifeDates: fromSpec(LIFE_DATES_FIELDS),
  work: fromSpec(WORK_FIELDS, {
    personen: {
      description: 'The persons as the representation lists them (instead of `person`).',
      type: 'array',
      items: { anyOf: [{ type: 'string' }, link] },
    },
  }),
  copy: fromSpec(COPY_FIELDS, {
    vermisst: {
      type: ['boolean', 'string', 'null'],
      description: 'true/false (a form: "true", "on", "ja").',
    },
  }),
  borrow: byHand({ werk: WERK_REF, exemplar: EXEMPLAR_REF }, ['werk']),
  desk: byHand(
    {
      ausweis: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: "The patron's library card number.",
      },
      barcode: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: 'The copy in hand: exactly this copy is lent.',
      },
      werk: { ...WERK_REF, description: 'Instead of a barcode: a work, whose first free copy is lent.' },
    },
    ['ausweis'],
  ),
  hold: byHand({ werk: WERK_REF }, ['werk']),
  checkIn: byHand({ barcode: { type: 'string', minLength: 1, maxLength: 64 } }, ['barcode']),
  renewal: { ...byHand({}, []), optional: true },
  account: byHand(
    {
      username: {
        type: 'string',
        description: 'Creating: the new user name; replacing: must stay the same.',
      },
      rolle: { type: 'string', enum: [...ROLES] },
      gesperrt: { type: 'boolean' },
      passwort: password('Creating only: the first password.'),
      wiederholung: password('The password again (required from a form).'),
    },
    ['rolle', 'gesperrt'],
    ['rolle'],
  ),
  password: byHand(
    {
      altesPasswort: { type: 'string', description: 'Required when changing the own password.' },
      neuesPasswort: password('The new password (not the user name).'),
      wiederholung: password('The new password again (required from a form).'),
    },
    ['neuesPasswort'],
  ),
  settings: byHand(
    {
      email: {
        type: ['string', 'null'],
        maxLength: MAX_EMAIL_LENGTH,
        description: 'The private e-mail address; empty or null: none.',
      },
      sprache: { type: 'string', enum: [...NOTICE_LANGUAGES] },
      benachrichtigungen: { type: 'boolean', description: 'false: no notices (a form: unticked).' },
      passwort: {
        type: 'string',
        description: 'The own password: required when the person changes their own e-mail address.',
      },
    },
    ['sprache', 'benachrichtigungen'],
    ['sprache'],
  ),
  passwordResetRequest: byHand(
    {
      konto: { type: 'string', minLength: 1, maxLength: 254, description: 'A user name or e-mail address.' },
    },
    ['konto'],
  ),
  passwordReset: byHand(
    {
      neuesPasswort: password('The new password (not the user name).'),
      wiederholung: password('The new password again (required from a form).'),
    },
    ['neuesPasswort'],
  ),
  itemTypeNew: itemTypeBody(true),
  itemType: itemTypeBody(false),
  closedDayNew: byHand(
    {
      tag: { type: 'string', format: 'date', description: 'The day, YYYY-MM-DD.' },
      anlass: { type: 'string', maxLength: CLOSED_DAY_FIELDS.anlass.maxLength },
    },
    ['tag'],
  ),
  closedDay: byHand({ anlass: { type: 'string', maxLength: CLOSED_DAY_FIELDS.anlass.maxLength } }, []),
  login: byHand(
    {
      username: { type: 'string', minLength: 1 },
      password: { type: 'string', minLength: 1 },
      [RETURN_FIELD]: { type: 'string', description: 'A path under the base to go to (a form: 303).' },
    },
    ['username', 'password'],
  ),
} satisfies Record<string, BodySchema>;

export type BodyName = keyof typeof BODIES;

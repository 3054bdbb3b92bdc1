// A field spec (./validate.ts) as JSON Schema, for API descriptions: the same declaration
// checkFields validates with, so the description of a write body cannot drift from the check.
// JSON bodies keep their types (an `int` field is a JSON integer); a form or XML sends text, so
// their schemas are strings. A blank or absent optional field means "none" (checkFields drops
// it), so optional fields also take null — a client can PUT back what GET answered.
import type { FieldRule, FieldSpec } from './validate.ts';
import { SLUG_PATTERN } from './validate.ts';

export type JsonSchema = Record<string, unknown>;

function jsonValue(rule: FieldRule): JsonSchema {
  switch (rule.type) {
    case 'int':
      return {
        type: 'integer',
        ...(rule.min !== undefined && { minimum: rule.min }),
        ...(rule.max !== undefined && { maximum: rule.max }),
      };
    case 'string':
      return {
        type: 'string',
        ...(rule.minLength !== undefined && { minLength: rule.minLength }),
        ...(rule.maxLength !== undefined && { maxLength: rule.maxLength }),
      };
    case 'url-or-slug':
      return {
        type: 'string',
        description: `An http(s) URL or a slug (${SLUG_PATTERN.source}).`,
        maxLength: 2048,
      };
  }
}

function textValue(rule: FieldRule): JsonSchema {
  if (rule.type !== 'int') return jsonValue(rule);
  return { type: 'string', pattern: '^\\s*-?\\d{1,16}\\s*$' };
}

function property(rule: FieldRule, value: (rule: FieldRule) => JsonSchema): JsonSchema {
  // A required field left blank is missing (checkFields trims): at least one character.
  const one =
    rule.required && rule.type === 'string' && !rule.minLength
      ? { ...value(rule), minLength: 1 }
      : value(rule);
  if (rule.many) return { type: 'array', items: one };
  return rule.required ? one : { ...one, type: [one.type, 'null'] };
}

function objectSchema(spec: FieldSpec, value: (rule: FieldRule) => JsonSchema): JsonSchema {
  const required = Object.entries(spec)
    .filter(([, rule]) => rule.required)
    .map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(spec).map(([name, rule]) => [name, property(rule, value)])),
    ...(required.length > 0 && { required }),
  };
}

/**
 * The JSON body a spec accepts. Other members are allowed and ignored (the derived members of
 * a representation, so a GET's JSON can be sent back): `additionalProperties` stays open.
 */
export function fieldSpecJsonSchema(spec: FieldSpec): JsonSchema {
  return objectSchema(spec, jsonValue);
}

/** The same fields as an HTML form sends them: every value is text; a repeated field, an array. */
export function fieldSpecFormSchema(spec: FieldSpec): JsonSchema {
  const schema = objectSchema(spec, textValue);
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [name, rule] of Object.entries(spec)) {
    const one = textValue(rule);
    // A form sends an empty input as "", never null; a field given once is one value.
    if (rule.many) properties[name] = { anyOf: [one, { type: 'array', items: one }] };
    else if (!rule.required) properties[name] = one;
  }
  return schema;
}

// JSON Schema (draft 2020-12) validation with Ajv, for the /schema/*.json documents.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchema, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export type JsonValidation = { ok: boolean; errors: string };

// ajv-formats is CommonJS: under Node's ESM the plugin is the `default` of module.exports.
const addFormats = addFormatsModule.default;

// Compiling is the slow part: keep one validator per schema object. One Ajv per schema, so
// two schemas with the same $id (say, two versions under test) cannot collide.
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Validates `value` against a draft 2020-12 schema (formats such as uri and date-time are
 * checked). `errors` lists every problem as "<instance path> <message>", one per line.
 * `references` are further schemas (with $id) that `schema` refers to by $ref.
 * A schema Ajv cannot compile (unknown keyword, bad $ref) throws: that is a bug in the schema.
 */
export function validateJson(value: unknown, schema: object, references: object[] = []): JsonValidation {
  let validate = compiled.get(schema);
  if (!validate) {
    // strictSchema: an unknown keyword is a typo, not an annotation. Ajv's stylistic checks
    // (strictTypes, strictTuples) would only print warnings about valid schemas.
    const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false });
    addFormats(ajv);
    for (const reference of references) ajv.addSchema(reference as AnySchema);
    validate = ajv.compile(schema as AnySchema);
    compiled.set(schema, validate);
  }
  const ok = validate(value);
  const errors = (validate.errors ?? [])
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${detail(e.params)}`)
    .join('\n');
  return { ok, errors };
}

function detail(params: Record<string, unknown>): string {
  const entries = Object.entries(params);
  return entries.length === 0 ? '' : ` (${entries.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')})`;
}

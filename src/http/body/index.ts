export {
  registerBodyParsers,
  refuseBeforeReading,
  hasBody,
  parserFor,
  ACCEPTED_BODY_TYPES,
  ACCEPT_POST,
  ACCEPT_PATCH,
  unsupportedPatch,
  PARSED_MEDIA_TYPES,
} from './plugin.ts';
export { applyMergePatch, MERGE_PATCH_TYPE } from './merge-patch.ts';
export type { BodyParserOptions } from './plugin.ts';
export { parseMediaType, bodyTypeOf, type MediaType } from './media-type.ts';
export { DEFAULT_BODY_LIMIT } from './read.ts';
export { parseForm } from './form.ts';
export { parseJsonFields } from './json.ts';
export { parseXmlFields } from './xml.ts';
export { checkFields, SLUG_PATTERN } from './validate.ts';
export type { FieldCheck, FieldRule, FieldSpec, FieldProblem, ProblemCode, Validated } from './validate.ts';
export type { Fields, FieldValue } from './fields.ts';
export { isFields } from './fields.ts';
export { fieldSpecJsonSchema, fieldSpecFormSchema, type JsonSchema } from './schema.ts';

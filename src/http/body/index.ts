export {
  registerBodyParsers,
  refuseBeforeReading,
  hasBody,
  ACCEPT_POST,
  ACCEPT_PATCH,
  unsupportedPatch,
  PARSED_MEDIA_TYPES,
} from './plugin.ts';
export { applyMergePatch, MERGE_PATCH_TYPE } from './merge-patch.ts';
export { parseMediaType, bodyTypeOf, type MediaType } from './media-type.ts';
export { DEFAULT_BODY_LIMIT } from './read.ts';
export { parseXmlFields } from './xml.ts';
export { checkFields, SLUG_PATTERN } from './validate.ts';
export type { FieldSpec, FieldProblem, Validated } from './validate.ts';
export type { Fields } from './fields.ts';
export { fieldSpecJsonSchema, fieldSpecFormSchema, type JsonSchema } from './schema.ts';

export {
  registerBodyParsers,
  refuseBeforeReading,
  parserFor,
  ACCEPTED_BODY_TYPES,
  ACCEPT_POST,
} from './plugin.ts';
export type { BodyParserOptions } from './plugin.ts';
export { parseMediaType, bodyTypeOf, type MediaType } from './media-type.ts';
export { DEFAULT_BODY_LIMIT } from './read.ts';
export { parseForm } from './form.ts';
export { parseJsonFields } from './json.ts';
export { parseXmlFields } from './xml.ts';
export { checkFields, SLUG_PATTERN } from './validate.ts';
export type { FieldCheck, FieldRule, FieldSpec, FieldProblem, ProblemCode, Validated } from './validate.ts';
export type { Fields, FieldValue } from './fields.ts';

export {
  chooseErrorFormat,
  chooseFormat,
  negotiateAccept,
  parseFormat,
  mediaTypeOf,
  CONTENT_TYPES,
} from './format.ts';
export type { FormatChoice, FormatInputs, FormatSource } from './format.ts';
export { negotiateLanguage } from './language.ts';

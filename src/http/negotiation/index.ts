export { mediaTypeOf } from './format.ts';

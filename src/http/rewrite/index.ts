export { withSuffix, keepFormat } from './rewrite.ts';

export { rewrite, stripBase, stripSuffix, withSuffix, keepFormat, MalformedPathError } from './rewrite.ts';
export { resolveUrl } from './resolve.ts';
export type { ResolvedUrl, UrlSpace } from './resolve.ts';

// httpd's request parsing under HttpProtocolOptions Strict (its default), as pure functions on
// the raw bytes of a head: docs/decisions/0016-strict-request-parsing.md.
export { strictHead, type StrictHead, type StrictEntry } from './head.ts';
export { parseRequestLine, type RequestLine } from './request-line.ts';
export { readHeaderFields, type FieldsRead } from './header-fields.ts';
export { readLine, type LineRead } from './line.ts';
export { normalizablePath, parseTarget, hidePassword } from './target.ts';

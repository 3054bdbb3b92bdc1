export { etagOf, noneMatch, notModified, strongMatch } from './conditional.ts';
export type { ConditionalHeaders } from './conditional.ts';

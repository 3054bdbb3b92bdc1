export { etagOf, noneMatch, lastModifiedToSend, notModified, strongMatch } from './conditional.ts';
export type { ConditionalHeaders } from './conditional.ts';

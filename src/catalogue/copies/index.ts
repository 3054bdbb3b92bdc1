export { createCopyStore, type CopyStore } from './store.ts';
export { copiesResource, copyResource } from './resource.ts';
export { liveCopies } from './read.ts';
export type { Copy, CopyStatus } from './model.ts';

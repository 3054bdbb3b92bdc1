// The desk (ADR 0082): lending by library card and barcode at `/theke`.
export { deskResource, type DeskOptions } from './resource.ts';
export { createDeskStore, type DeskStore, type Patron, type DeskCopy, type CopyKey } from './store.ts';
export { DESK_PATH, deskPath } from './paths.ts';
export { deskStrings } from './strings.ts';
export { likeLiteral } from './store.ts';

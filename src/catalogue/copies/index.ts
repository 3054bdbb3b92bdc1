export { createCopyStore, type CopyStore } from './store.ts';
export { copiesResource, copyResource } from './resource.ts';
export { liveCopies, liveCopiesFromJson, liveCopiesJson, type CopiesJson } from './read.ts';
export type { Copy, CopyStatus } from './model.ts';
export { copiesTable, copyItemsJson, copyItemsXml, freshUntilOf } from './copies-view.ts';
export {
  CopiesOnLoanError,
  freshBarcode,
  hasCopyOnLoan,
  liveCopyCount,
  setCopyCount,
  syncCopyCount,
} from './count.ts';
export { freeCopiesOf, isFreeCopy } from './free.ts';
export { COPY_FIELDS } from './input.ts';
export type { ReadClock } from './read.ts';
export { barcodeFor, signaturFor } from './signatur.ts';
export { copyStrings } from './strings.ts';

// The check-in folder's public surface: other folders import it from here only (docs/architecture.md).
export { CHECK_IN_PATH } from './paths.ts';
export { checkInResource } from './resource.ts';
export { cleanBarcode, createCheckInStore, type CheckInStore } from './store.ts';
export { daysLate } from './view.ts';

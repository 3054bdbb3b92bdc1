// The staff lists (ADR 0092): patrons, the hold shelf, overdue loans.
export {
  patronsResource,
  holdShelfResource,
  overdueResource,
  MAX_DAYS,
  type StaffListOptions,
} from './resources.ts';
export { createStaffListStore, type StaffListStore } from './store.ts';
export { HOLD_SHELF_PATH, OVERDUE_PATH, PATRONS_PATH } from './paths.ts';
export { filteredPageLinks } from './list-links.ts';
export { filteredPath } from './list-links.ts';

// Circulation rules (issue 20, ADR 0084): item types, loan limits and the calendar of closed days.
export {
  dueAfter,
  firstFreeCopy,
  loanTerms,
  ruleOfCopy,
  type RuleDefaults,
  type TermsRefusal,
} from './terms.ts';
export { dayOf, isDay, nextOpenDay } from './calendar.ts';
export { createRulesEditingStore, ItemTypeInUseError, type RulesEditingStore } from './editing-store.ts';
export { itemTypeResources, closedDayResources } from './editing-resources.ts';
export { ITEM_TYPES_PATH, CLOSED_DAYS_PATH, itemTypePath, closedDayPath } from './editing-paths.ts';
export { ITEM_TYPE_FIELDS, CLOSED_DAY_FIELDS, CODE_PATTERN } from './editing-input.ts';

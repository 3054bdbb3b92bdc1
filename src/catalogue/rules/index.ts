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

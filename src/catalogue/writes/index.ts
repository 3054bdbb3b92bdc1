// Shared pieces of the catalogue's write handlers and forms (persons, works).
export { requireStaff, formFlow, hasBody } from './access.ts';
export { serialized } from './lock.ts';
export { againWhenChanged } from './changed.ts';
export { writeTarget, conflictOf, type WriteTarget } from './target.ts';
export { deleteHandler, hasWriteMethods, invalidOutcome, writtenOutcome } from './outcomes.ts';
export { validationError, problem, type WriteProblem } from './problems.ts';
export { refTarget, flattenRefs, type RefTarget } from './refs.ts';
export { checkAll, inFieldOrder } from './checks.ts';
export {
  field,
  errorSummary,
  hiddenFields,
  versionFor,
  isStaff,
  enteredValues,
  textOf,
  EMPTY_FORM,
  type FormState,
  type FieldOptions,
} from './form-html.ts';
export { formPageView, type FormPage } from './form-page.ts';
export { formStrings, type FormStrings } from './strings.ts';

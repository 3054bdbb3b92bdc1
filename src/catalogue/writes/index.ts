// The catalogue's write side shared by persons and works: the one write flow (flow.ts) and the
// pieces their body readers and forms are built from.
export {
  writeMethods,
  pickWriteMethods,
  replaceMethod,
  type ReplaceableResource,
  type ReplaceableStore,
  type WritableResource,
  type WritableStore,
  type WriteMethods,
} from './flow.ts';
export type { FormPageModel, InputRead, Stored } from './flow.ts';
export { hasWriteMethods } from './outcomes.ts';
export { requireStaff, formFlow } from './access.ts';
export { validationError, problem, type WriteProblem } from './problems.ts';
export { refTarget, flattenRefs, type RefTarget } from './refs.ts';
export { checkAll, inFieldOrder } from './checks.ts';
export {
  field,
  errorSummary,
  hiddenFields,
  versionFor,
  staffToolsSection,
  isStaff,
  enteredValues,
  textOf,
  EMPTY_FORM,
  type FormState,
  type FieldOptions,
} from './form-html.ts';
export { formPageView, type FormPage } from './form-page.ts';
export {
  CONFIRM_DELETE_PARAM,
  deleteConfirmationPage,
  deleteLink,
  wantsDeleteConfirmation,
} from './confirm-delete.ts';
export { formStrings, type FormStrings } from './strings.ts';
export { hasBody, staffOnly } from './access.ts';
export { againWhenChanged } from './changed.ts';
export { serialized } from './lock.ts';
export { invalidOutcome } from './outcomes.ts';
export { writtenOutcome } from './outcomes.ts';

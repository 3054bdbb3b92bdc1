export {
  createAccountStore,
  AccountError,
  ROLES,
  isValidUsername,
  normaliseUsername,
  type Account,
  type AccountDetails,
  type AccountStore,
  type NewAccount,
} from './store.ts';
export type { AccountChange, AccountWrites } from './account-writes.ts';
export { LastStaffError, isLastStaff, refuseLastStaff } from './last-staff.ts';
export { sessionRecords } from './sessions.ts';
export { passwordProblem, MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from './password-rule.ts';
export { createDatabaseLoginLimiter, type DatabaseLimiterOptions } from './login-failures.ts';
export { createLoginReader, type LoginReader } from './login-reader.ts';
export { storedSessionSecret } from './session-secret.ts';
export { hashPassword, verifyPassword, needsRehash, DEFAULT_PARAMS, type ScryptParams } from './password.ts';
// The account's HTTP resources (ADR 0063).
export { accountResource, CREATE_PARAM } from './resource.ts';
export { passwordResource, type AccountResourceOptions } from './password-resource.ts';
export { accountPath, passwordPath } from './access.ts';
export { accountLink } from './account-link.ts';
export { cleanCardNumber, defaultCardNumber } from './card-number.ts';
export { lastStaffRefusal } from './last-staff-problem.ts';
export { accountStrings } from './strings.ts';
export { settingsResource } from './settings-resource.ts';
export { settingsPath } from './settings-view.ts';
export { createSettingsStore, NOTICE_LANGUAGES, type SettingsStore } from './settings-store.ts';
export { MAX_EMAIL_LENGTH } from './settings-input.ts';
export { readNewPassword } from './input.ts';
export { required } from './input.ts';
export { text } from './input.ts';
export { passwordField } from './forms.ts';

export {
  createAccountStore,
  AccountError,
  ROLES,
  isValidUsername,
  normaliseUsername,
  type Account,
  type AccountStore,
  type NewAccount,
} from './store.ts';
export { createDatabaseLoginLimiter, type DatabaseLimiterOptions } from './login-failures.ts';
export { storedSessionSecret } from './session-secret.ts';
export { hashPassword, verifyPassword, needsRehash, DEFAULT_PARAMS, type ScryptParams } from './password.ts';

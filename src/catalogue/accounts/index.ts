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
export { hashPassword, verifyPassword, needsRehash, DEFAULT_PARAMS, type ScryptParams } from './password.ts';

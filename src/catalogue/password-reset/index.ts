// Password reset by e-mailed link (issue 20, ADR 0093): the request form, the single-use
// expiring link, its page that sets the new password and ends every session.
export {
  createPasswordResetStore,
  hashToken,
  RESET_VALID_MINUTES,
  TOKEN_PATTERN,
  type IssuedReset,
  type PasswordResetStore,
  type ResetState,
} from './store.ts';
export { maskResetLinks, resetMail, resetPath, type ResetMail, type ResetMailOptions } from './mail.ts';
export {
  passwordResetRequestResource,
  passwordResetResource,
  type PasswordResetOptions,
} from './resources.ts';
export { REQUEST_PATH } from './views.ts';

export { parseBasic, BASIC_CHALLENGE } from './basic.ts';
export type { BasicCredentials } from './basic.ts';
export { createAuthenticator } from './authenticator.ts';
export type {
  AccountRecord,
  AuthFailure,
  AuthInput,
  Authentication,
  Authenticator,
  AuthenticatorOptions,
  LoginResult,
} from './authenticator.ts';
export { MemoryLoginLimiter, limiterKey } from './rate-limit.ts';
export type { LoginLimiter, LimitVerdict, MemoryLimiterOptions } from './rate-limit.ts';
export { authenticationError, loginError, tooManyAttempts } from './errors.ts';
export { createSecurity, registerSecurityHooks } from './hooks.ts';
export type { Security, SecurityOptions } from './hooks.ts';

export { parseBasic, BASIC_CHALLENGE } from './basic.ts';
export type { BasicCredentials } from './basic.ts';
export { ANONYMOUS, createAuthenticator } from './authenticator.ts';
export type {
  AccountRecord,
  AuthFailure,
  AuthInput,
  Authentication,
  Authenticator,
  LimitReached,
  AuthenticatorOptions,
  LoginResult,
  SessionRecords,
} from './authenticator.ts';
export { MemoryLoginLimiter, limiterKey, addressLimiterKey } from './rate-limit.ts';
export { normaliseUsername } from './username.ts';
export { VerificationGate, type GateOptions } from './verification-gate.ts';
export { CredentialCache, type CredentialCacheOptions } from './credential-cache.ts';
export type { LoginLimiter, LimitVerdict, MemoryLimiterOptions } from './rate-limit.ts';
export { authenticationError, tooManyAttempts } from './errors.ts';

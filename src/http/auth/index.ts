export { ANONYMOUS, authenticationError, createAuthenticator, tooManyAttempts } from './authenticator.ts';
export type {
  AccountRecord,
  AuthenticatorOptions,
  Authentication,
  Authenticator,
  LimitReached,
  SessionRecords,
} from './authenticator.ts';
export { MemoryLoginLimiter } from './rate-limit.ts';
export { VerificationGate } from './verification-gate.ts';
export { CredentialCache } from './credential-cache.ts';
export type { LoginLimiter, LimitVerdict } from './rate-limit.ts';

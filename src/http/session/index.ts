export { createSessionCodec, DEFAULT_SESSION_TTL } from './codec.ts';
export type { IssueOptions, Session, SessionCodec, SessionCodecOptions } from './codec.ts';
export { createSessionCookies, cookieAttributes, SESSION_COOKIE } from './cookie.ts';
export type { SessionCookies, SessionCookieOptions } from './cookie.ts';
export { deriveKeys, mac, verifyMac, fromBase64url } from './keys.ts';
export type { Keyring } from './keys.ts';

export { createSessionCodec } from './codec.ts';
export type { Session, SessionCodec } from './codec.ts';
export { createSessionCookies, SESSION_COOKIE } from './cookie.ts';
export type { SessionCookies } from './cookie.ts';

// The session cookie on the wire, via @fastify/cookie (which createResourceApp registers, with
// no secret of its own: the value is signed by codec.ts). Only the login (set) and logout
// (clear) handlers write it; nothing here runs on GET/HEAD, so anonymous readers never get a
// cookie (docs/methods.md) and a logged-in reader's cookie is never refreshed behind their back.
import type { FastifyReply } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { IssueOptions, Session, SessionCodec } from './codec.ts';

export const SESSION_COOKIE = 'shelfmark_session';

export interface SessionCookieOptions {
  readonly codec: SessionCodec;
  /** Public base URL (SHELFMARK_BASE_URL): its path becomes the cookie Path, https makes it Secure. */
  readonly baseUrl: string;
}

export interface SessionCookies {
  readonly name: string;
  /**
   * Sets a fresh session cookie (log in) and returns the new session. `secure`: the client
   * reached us over https (a trusted proxy's X-Forwarded-Proto), which adds `Secure` even when
   * the configured base URL is http. `issue`: the account's epoch, and the session id to keep
   * when a cookie is reissued (after the device changed its own password).
   */
  set(reply: FastifyReply, userId: number, nowMs: number, secure?: boolean, issue?: IssueOptions): Session;
  /** Expires the cookie (log out). */
  clear(reply: FastifyReply, secure?: boolean): void;
}

export function cookieAttributes(baseUrl: string): CookieSerializeOptions {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return { path, httpOnly: true, sameSite: 'lax', secure: url.protocol === 'https:' };
}

export function createSessionCookies(options: SessionCookieOptions): SessionCookies {
  const name = SESSION_COOKIE;
  const attributes = cookieAttributes(options.baseUrl);
  const { codec } = options;
  return {
    name,
    set(reply, userId, nowMs, secure = false, issue = {}) {
      const { value, session } = codec.issue(userId, nowMs, issue);
      const flags = { ...attributes, secure: attributes.secure === true || secure };
      reply.setCookie(name, value, { ...flags, maxAge: issue.ttlSeconds ?? codec.ttlSeconds });
      return session;
    },
    clear(reply, secure = false) {
      reply.clearCookie(name, { ...attributes, secure: attributes.secure === true || secure });
    },
  };
}

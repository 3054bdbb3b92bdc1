// CSRF tokens bound to the session and time-limited, with nothing stored on the server:
// token = base36(issued at, Unix seconds) "." base64url(HMAC(key, session id "." issued at)).
// A token from another session, a forged or an expired one fails. The key is derived for
// this purpose only (see session/keys.ts), so a session MAC can never pass as a token.
import { deriveKeys, fromBase64url, mac, verifyMac, type Keyring } from '../session/keys.ts';

export const DEFAULT_CSRF_MAX_AGE = 2 * 60 * 60;
/** Tolerated clock difference between machines issuing and checking tokens. */
const FUTURE_SKEW = 60;

export type TokenVerdict = 'ok' | 'missing' | 'invalid' | 'expired';

export interface CsrfTokenOptions {
  readonly secrets: readonly string[];
  readonly maxAgeSeconds?: number;
}

export interface CsrfTokens {
  issue(sessionId: string, nowMs: number): string;
  verify(token: string | undefined, sessionId: string, nowMs: number): TokenVerdict;
}

export function createCsrfTokens(options: CsrfTokenOptions): CsrfTokens {
  const keys: Keyring = deriveKeys(options.secrets, 'csrf');
  const maxAge = options.maxAgeSeconds ?? DEFAULT_CSRF_MAX_AGE;
  const signed = (sessionId: string, issued: number) => `${sessionId}.${issued}`;
  return {
    issue(sessionId, nowMs) {
      const issued = Math.floor(nowMs / 1000);
      return `${issued.toString(36)}.${mac(keys[0] as Buffer, signed(sessionId, issued)).toString('base64url')}`;
    },
    verify(token, sessionId, nowMs) {
      if (!token) return 'missing';
      const match = /^([0-9a-z]{1,10})\.([\w-]{43})$/.exec(token);
      const sig = match?.[2] === undefined ? null : fromBase64url(match[2]);
      if (!match?.[1] || !sig) return 'invalid';
      const issued = parseInt(match[1], 36);
      if (!verifyMac(keys, signed(sessionId, issued), sig)) return 'invalid';
      const now = Math.floor(nowMs / 1000);
      if (issued > now + FUTURE_SKEW) return 'invalid';
      return now - issued > maxAge ? 'expired' : 'ok';
    },
  };
}

// The session cookie's value: `base64url(payload).base64url(HMAC-SHA256(payload))`, the payload
// {"u": user id, "e": expiry (Unix s), "s": random session id (binds CSRF tokens), "v": the
// account's epoch (ADR 0063; absent: 0)}. Anything that does not verify reads as null: the client
// is simply anonymous, never an error.
import { randomBytes } from 'node:crypto';
import { deriveKeys, fromBase64url, mac, verifyMac, type Keyring } from './keys.ts';

export interface Session {
  readonly userId: number;
  /** Expiry, Unix time in seconds. */
  readonly expires: number;
  /** Random per-login id (base64url, 128 bits); CSRF tokens are bound to it. */
  readonly id: string;
  /** The account's session epoch it was issued under. */
  readonly epoch: number;
}

/** What a reissued cookie keeps: the session id (CSRF tokens stay valid) and the new epoch. */
export interface IssueOptions {
  readonly ttlSeconds?: number;
  readonly epoch?: number;
  readonly id?: string;
}

export interface SessionCodecOptions {
  /** Secrets, newest first: the first signs, all verify. */
  readonly secrets: readonly string[];
  /** Lifetime of a session in seconds (default 8 hours). */
  readonly ttlSeconds?: number;
}

export interface SessionCodec {
  readonly ttlSeconds: number;
  issue(userId: number, nowMs: number, options?: IssueOptions): { value: string; session: Session };
  read(value: string | undefined, nowMs: number): Session | null;
}

export const DEFAULT_SESSION_TTL = 8 * 60 * 60;

function parsePayload(json: string): Session | null {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { u, e, s, v = 0 } = data as Record<string, unknown>;
  if (!Number.isSafeInteger(u) || !Number.isSafeInteger(e) || typeof s !== 'string' || !/^[\w-]{22}$/.test(s))
    return null;
  if (!Number.isSafeInteger(v)) return null;
  return { userId: u as number, expires: e as number, id: s, epoch: v as number };
}

export function createSessionCodec(options: SessionCodecOptions): SessionCodec {
  const keys: Keyring = deriveKeys(options.secrets, 'session');
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_SESSION_TTL;
  const signingKey = keys[0] as Buffer;
  return {
    ttlSeconds,
    issue(userId, nowMs, issue = {}) {
      const session: Session = {
        userId,
        expires: Math.floor(nowMs / 1000) + (issue.ttlSeconds ?? ttlSeconds),
        id: issue.id ?? randomBytes(16).toString('base64url'),
        epoch: issue.epoch ?? 0,
      };
      const payload = Buffer.from(
        JSON.stringify({ u: session.userId, e: session.expires, s: session.id, v: session.epoch }),
      ).toString('base64url');
      return { value: `${payload}.${mac(signingKey, payload).toString('base64url')}`, session };
    },
    read(value, nowMs) {
      if (!value || value.length > 512) return null;
      const [payload, signature, extra] = value.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) return null;
      const sig = fromBase64url(signature);
      const body = fromBase64url(payload);
      if (!sig || !body || !verifyMac(keys, payload, sig)) return null;
      const session = parsePayload(body.toString('utf8'));
      return session && session.expires * 1000 > nowMs ? session : null;
    },
  };
}

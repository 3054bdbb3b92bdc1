// Key handling shared by sessions and CSRF tokens: per-purpose keys derived from the configured
// secret(s) with HKDF (a session MAC can never be replayed as a CSRF MAC), HMAC-SHA256, and
// constant-time comparison. Rotation: pass several secrets, newest first; the first signs,
// all verify. Drop an old secret once every cookie signed with it has expired.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export type Keyring = readonly Buffer[];

export function deriveKeys(secrets: readonly string[], purpose: string): Keyring {
  if (secrets.length === 0) throw new Error('at least one secret is needed');
  return secrets.map((secret) =>
    Buffer.from(hkdfSync('sha256', secret, 'shelfmark', `shelfmark ${purpose} v1`, 32)),
  );
}

export function mac(key: Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** True when `signature` is the MAC of `data` under any key; every key is tried (no early exit). */
export function verifyMac(keys: Keyring, data: string, signature: Buffer): boolean {
  let ok = false;
  for (const key of keys) {
    const expected = mac(key, data);
    if (expected.length === signature.length && timingSafeEqual(expected, signature)) ok = true;
  }
  return ok;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of an unpadded base64url text, or null. Only the canonical encoding is accepted:
 * a last character whose unused low bits are set decodes to the same bytes as another text,
 * and a signed value must have exactly one spelling (so a changed character is always refused).
 */
export function fromBase64url(text: string): Buffer | null {
  if (!B64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

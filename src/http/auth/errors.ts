// The HTTP answer to a failed authentication. Only a client that tried Basic gets a 401 with a
// WWW-Authenticate challenge (so browsers never pop up a password dialog unasked); anonymous
// clients are not refused here — the access rules answer them with 403 (docs/access.md).
import { HttpError } from '../errors/index.ts';
import type { Authentication } from './authenticator.ts';
import { BASIC_CHALLENGE } from './basic.ts';

export function tooManyAttempts(retryAfterSeconds: number): HttpError {
  return new HttpError('SHELFMARK_TOO_MANY_REQUESTS', {
    detail: `Too many failed log-in attempts. Try again in ${retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

export function authenticationError(auth: Authentication): HttpError | null {
  if (auth.failure === 'rate-limited') return tooManyAttempts(auth.retryAfterSeconds ?? 1);
  if (auth.failure === null) return null;
  return new HttpError('SHELFMARK_UNAUTHENTICATED', {
    detail:
      auth.failure === 'malformed' ? 'The Basic credentials are malformed.' : 'Wrong user name or password.',
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
}

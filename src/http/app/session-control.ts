// The session control a handler's context carries (ctx.session): log-in and log-out set or
// clear the one session cookie on the reply, a password is confirmed like a log-in, a renewed
// epoch reissues the cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyAttempts } from '../auth/index.ts';
import { HttpError } from '../errors/http-error.ts';
import type { Principal, SessionControl } from '../resource/types.ts';
import type { RequestState } from './request-state.ts';
import { warnLimitReached } from './warnings.ts';

/** The client used https: the configured base, or X-Forwarded-Proto from a trusted proxy. */
function overHttps(state: RequestState): boolean {
  return state.publicBase.origin.startsWith('https:');
}

/** Who is asking, as the handler may change it (a log-in, a log-out). */
export interface Asking {
  user: Principal | null;
  sessionId: string | null;
  /** The session's expiry (Unix seconds): a reissued cookie keeps it (ADR 0076). */
  sessionExpires: number | null;
  viaBasic: boolean;
}

export function sessionControl(
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
  asking: Asking,
): SessionControl {
  const auth = state.layer.auth;
  return {
    async login(username, password) {
      if (!auth) throw new Error('log-in needs ResourceAppOptions.security');
      const result = await auth.authenticator.checkPassword(username, password, request.ip);
      if (!result.ok) {
        if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfterSeconds);
        // The same entries as a failed Basic attempt (refusal-log.ts), with the name as typed.
        state.layer.refusals.authenticationFailed(state.raw, state.originalUrl, username, result.unknownUser);
        if (result.limitReached)
          warnLimitReached(state.layer.errorLog, state.raw, username, result.limitReached);
        // No WWW-Authenticate: this is a form or API log-in, not a Basic challenge.
        throw new HttpError('SHELFMARK_UNAUTHENTICATED', { detail: 'Wrong user name or password.' });
      }
      const session = auth.cookies.set(reply, result.principal.id, auth.now(), overHttps(state), {
        epoch: result.epoch,
      });
      // Recorded before the answer leaves, so the cookie works on every worker from the next request.
      await auth.sessionRecords?.start(session);
      asking.user = result.principal;
      asking.sessionId = session.id;
      asking.sessionExpires = session.expires;
      asking.viaBasic = false;
      state.accessUser = result.principal.username;
      return result.principal;
    },
    async logout() {
      if (!auth) return;
      // The record goes first: a copy of the cookie kept anywhere is then over too (ADR 0076).
      if (asking.sessionId !== null) await auth.sessionRecords?.end(asking.sessionId);
      auth.cookies.clear(reply, overHttps(state));
      asking.sessionId = null;
      asking.sessionExpires = null;
      if (!asking.viaBasic) asking.user = null;
    },
    async confirmPassword(password) {
      if (!auth || !asking.user) return false;
      const { username } = asking.user;
      const result = await auth.authenticator.checkPassword(username, password, request.ip);
      if (result.ok) return result.principal.id === asking.user.id;
      if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfterSeconds);
      // Logged like a failed log-in (AH01617), so fail2ban counts guesses here too.
      state.layer.refusals.authenticationFailed(state.raw, state.originalUrl, username, result.unknownUser);
      if (result.limitReached)
        warnLimitReached(state.layer.errorLog, state.raw, username, result.limitReached);
      return false;
    },
    renew(epoch) {
      if (!auth || asking.viaBasic || asking.sessionId === null || !asking.user) return;
      // The same session, so the same record and the same end: a password change does not
      // lengthen it (its record expires with the first cookie).
      const nowMs = auth.now();
      const left =
        asking.sessionExpires === null ? undefined : asking.sessionExpires - Math.floor(nowMs / 1000);
      auth.cookies.set(reply, asking.user.id, nowMs, overHttps(state), {
        epoch,
        id: asking.sessionId,
        ...(left !== undefined && { ttlSeconds: left }),
      });
    },
  };
}

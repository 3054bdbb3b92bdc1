// The RequestContext a handler gets: negotiated facts plus who is asking, the CSRF token for
// its forms, the session control (log-in, log-out: the one session cookie on the reply) and the
// precondition checks of PUT/DELETE. Who is asking comes from the RequestState, which
// authenticated once (in the preHandler, or here when first asked).
//
// The context is a plain object of data properties, never getters (ADR 0117): with getters in
// the literal, made per request, every young object of the request stayed alive through each
// scavenge (a person page's whole request, 8 KB of it, was copied twice and promoted), as V8
// keeps a literal's accessors with its hidden class, in the old generation. A log-in or
// log-out rewrites `user` and `csrfToken` in place; spreading the context still copies them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyAttempts, type LimitReached } from '../auth/index.ts';
import { HttpError } from '../errors/http-error.ts';
import type { FormatChoice } from '../negotiation/format.ts';
import type { Principal, RequestContext, SessionControl } from '../resource/types.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';
import { headerValue } from './layer.ts';
import { checkPreconditions, versionOf } from './preconditions.ts';
import type { RequestState } from './request-state.ts';
import { warnLimitReached } from './warnings.ts';

export interface Viewer {
  readonly user: Principal | null;
  readonly csrfToken: string | null;
}

/** Who is asking, for pages rendered outside a handler (error pages). Never throws. */
export async function viewerOf(state: RequestState, request: FastifyRequest): Promise<Viewer> {
  try {
    const auth = await state.authentication(request);
    const token = auth.session && state.layer.auth ? state.layer.auth.tokenFor(auth.session.id) : null;
    return { user: auth.principal, csrfToken: token };
  } catch {
    return { user: null, csrfToken: null };
  }
}

/** Who is asking, as the handler may change it (a log-in, a log-out). */
interface Asking {
  user: Principal | null;
  sessionId: string | null;
  /** The session's expiry (Unix seconds): a reissued cookie keeps it (ADR 0076). */
  sessionExpires: number | null;
  viaBasic: boolean;
}

/** The context as this module writes it: `user` and `csrfToken` follow a log-in or log-out. */
type WritableContext = { -readonly [K in keyof RequestContext]: RequestContext[K] };

function sessionControl(
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
  asking: Asking,
  changed: () => void,
): SessionControl {
  const { auth, refusals, errorLog } = state.layer;
  // The client used https: the configured base, or X-Forwarded-Proto from a trusted proxy.
  const overHttps = () => state.publicBase.origin.startsWith('https:');
  /** A wrong password: the same error-log entries as a failed Basic attempt (refusal-log.ts). */
  const logFailure = (username: string, unknownUser: boolean, limitReached?: LimitReached) => {
    refusals.authenticationFailed(state.raw, state.originalUrl, username, unknownUser);
    if (limitReached) warnLimitReached(errorLog, state.raw, username, limitReached);
  };
  return {
    async login(username, password) {
      if (!auth) throw new Error('log-in needs ResourceAppOptions.security');
      const result = await auth.authenticator.checkPassword(username, password, request.ip);
      if (!result.ok) {
        if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfterSeconds);
        logFailure(username, result.unknownUser, result.limitReached);
        // No WWW-Authenticate: this is a form or API log-in, not a Basic challenge.
        throw new HttpError('SHELFMARK_UNAUTHENTICATED', { detail: 'Wrong user name or password.' });
      }
      const session = auth.cookies.set(reply, result.principal.id, auth.now(), overHttps(), {
        epoch: result.epoch,
      });
      // Recorded before the answer leaves, so the cookie works on every worker from the next request.
      await auth.sessionRecords?.start(session);
      asking.user = result.principal;
      asking.sessionId = session.id;
      asking.sessionExpires = session.expires;
      asking.viaBasic = false;
      changed();
      state.accessUser = result.principal.username;
      return result.principal;
    },
    async logout() {
      if (!auth) return;
      // The record goes first: a copy of the cookie kept anywhere is then over too (ADR 0076).
      if (asking.sessionId !== null) await auth.sessionRecords?.end(asking.sessionId);
      auth.cookies.clear(reply, overHttps());
      asking.sessionId = null;
      asking.sessionExpires = null;
      if (!asking.viaBasic) asking.user = null;
      changed();
    },
    async confirmPassword(password) {
      if (!auth || !asking.user) return false;
      const { username } = asking.user;
      const result = await auth.authenticator.checkPassword(username, password, request.ip);
      if (result.ok) return result.principal.id === asking.user.id;
      if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfterSeconds);
      // Logged like a failed log-in (AH01617), so fail2ban counts guesses here too.
      logFailure(username, result.unknownUser, result.limitReached);
      return false;
    },
    renew(epoch) {
      if (!auth || asking.viaBasic || asking.sessionId === null || !asking.user) return;
      // The same session, so the same record and the same end: a password change does not
      // lengthen it (its record expires with the first cookie).
      const nowMs = auth.now();
      const ttlSeconds =
        asking.sessionExpires === null ? undefined : asking.sessionExpires - Math.floor(nowMs / 1000);
      auth.cookies.set(reply, asking.user.id, nowMs, overHttps(), {
        epoch,
        id: asking.sessionId,
        ttlSeconds,
      });
    },
  };
}

/** The handler's context for a resource request whose format was chosen (the dispatcher). */
export async function buildContext(
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
  resolved: Extract<ResolvedUrl, { kind: 'resource' }>,
  method: RequestContext['method'],
  choice: Extract<FormatChoice, { ok: true }>,
): Promise<RequestContext> {
  const authentication = await state.authentication(request);
  const asking: Asking = {
    user: authentication.principal,
    sessionId: authentication.session?.id ?? null,
    sessionExpires: authentication.session?.expires ?? null,
    viaBasic: authentication.via === 'basic',
  };
  const { auth, requirePreconditions } = state.layer;
  const body: unknown = request.body;
  const csrfTokenOf = () => (auth && asking.sessionId !== null ? auth.tokenFor(asking.sessionId) : null);
  const session = sessionControl(state, request, reply, asking, () => {
    ctx.user = asking.user;
    ctx.csrfToken = csrfTokenOf();
  });
  const ctx: WritableContext = {
    method,
    format: choice.format,
    formatSource: choice.source,
    lang: state.lang,
    query: resolved.query,
    links: state.links,
    path: resolved.path,
    body,
    bodyType: body === undefined || body === null ? null : state.bodyType,
    address: request.ip,
    session,
    user: asking.user,
    csrfToken: csrfTokenOf(),
    checkPreconditions(current) {
      const input = {
        method,
        ifMatch: headerValue(request.headers, 'if-match'),
        ifNoneMatch: headerValue(request.headers, 'if-none-match'),
        body,
        required: requirePreconditions,
      };
      checkPreconditions(input, current, ctx);
    },
    versionOf: (representation) => versionOf(representation, ctx),
  };
  return ctx;
}

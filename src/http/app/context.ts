// The RequestContext a handler gets: negotiated facts plus who is asking, the CSRF token for
// its forms, log-in/log-out, and the precondition checks of PUT/DELETE. Who is asking comes
// from the RequestState, which authenticated once (in the preHandler, or here when first asked).
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyAttempts } from '../auth/index.ts';
import { HttpError } from '../errors/http-error.ts';
import type { Principal, RequestContext, SessionControl } from '../resource/types.ts';
import { checkPreconditions, versionOf } from './preconditions.ts';
import type { RequestState } from './request-state.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';
import type { FormatChoice } from '../negotiation/format.ts';
import { headerValue } from './layer.ts';
import { warnLimitReached } from './warnings.ts';

/** The negotiated part of the context, computed by the dispatcher. */
export type ContextBase = Pick<
  RequestContext,
  'method' | 'format' | 'formatSource' | 'lang' | 'query' | 'links' | 'path'
>;

/** The negotiated part for a resource request whose format was chosen (dispatch, lean path). */
export function negotiated(
  state: RequestState,
  resolved: Extract<ResolvedUrl, { kind: 'resource' }>,
  method: RequestContext['method'],
  choice: Extract<FormatChoice, { ok: true }>,
): ContextBase {
  return {
    method,
    format: choice.format,
    formatSource: choice.source,
    lang: state.lang,
    query: resolved.query,
    links: state.links,
    path: resolved.path,
  };
}

export interface Viewer {
  readonly user: Principal | null;
  readonly csrfToken: string | null;
}

const ANONYMOUS: Viewer = { user: null, csrfToken: null };

/** Who is asking, for pages rendered outside a handler (error pages). Never throws. */
export async function viewerOf(state: RequestState, request: FastifyRequest): Promise<Viewer> {
  try {
    const auth = await state.authentication(request);
    const token = auth.session && state.layer.auth ? state.layer.auth.tokenFor(auth.session.id) : null;
    return { user: auth.principal, csrfToken: token };
  } catch {
    return ANONYMOUS;
  }
}

/** The client used https: the configured base, or X-Forwarded-Proto from a trusted proxy. */
function overHttps(state: RequestState): boolean {
  return state.publicBase.origin.startsWith('https:');
}

interface Asking {
  user: Principal | null;
  sessionId: string | null;
  viaBasic: boolean;
}

function sessionControl(
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
      asking.user = result.principal;
      asking.sessionId = session.id;
      asking.viaBasic = false;
      state.accessUser = result.principal.username;
      return result.principal;
    },
    logout() {
      if (!auth) return;
      auth.cookies.clear(reply, overHttps(state));
      asking.sessionId = null;
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
      auth.cookies.set(reply, asking.user.id, auth.now(), overHttps(state), { epoch, id: asking.sessionId });
    },
  };
}

/** What the context reads of the request besides the negotiated facts. */
interface ContextSource {
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  readonly bodyType: RequestContext['bodyType'];
  /** The client's address; asked for only when a handler reads ctx.address. */
  readonly address: () => string;
}

function contextOf(
  state: RequestState,
  base: ContextBase,
  source: ContextSource,
  session: SessionControl,
  asking: Asking,
): RequestContext {
  const { auth, requirePreconditions } = state.layer;
  let address: string | undefined;
  const ctx: RequestContext = {
    ...base,
    body: source.body,
    bodyType: source.bodyType,
    get address() {
      return (address ??= source.address());
    },
    session,
    // Getters: a log-in or log-out during the handler changes what the response shows.
    get user() {
      return asking.user;
    },
    get csrfToken() {
      return auth && asking.sessionId !== null ? auth.tokenFor(asking.sessionId) : null;
    },
    checkPreconditions(current) {
      const input = {
        method: base.method,
        ifMatch: headerValue(source.headers, 'if-match'),
        ifNoneMatch: headerValue(source.headers, 'if-none-match'),
        body: source.body,
        required: requirePreconditions,
      };
      checkPreconditions(input, current, ctx);
    },
    versionOf: (representation) => versionOf(representation, ctx),
  };
  return ctx;
}

export async function buildContext(
  state: RequestState,
  request: FastifyRequest,
  reply: FastifyReply,
  base: ContextBase,
): Promise<RequestContext> {
  const authentication = await state.authentication(request);
  const asking: Asking = {
    user: authentication.principal,
    sessionId: authentication.session?.id ?? null,
    viaBasic: authentication.via === 'basic',
  };
  const body: unknown = request.body;
  const source: ContextSource = {
    headers: request.headers,
    body,
    bodyType: body === undefined || body === null ? null : state.bodyType,
    address: () => request.ip,
  };
  return contextOf(state, base, source, sessionControl(state, request, reply, asking), asking);
}

/** A handler asked the lean path for what only the full path has (a log-in on a GET). */
export class NotOnTheLeanPath extends Error {
  constructor(what: string) {
    super(`${what} is answered by the full path`);
    this.name = 'NotOnTheLeanPath';
  }
}

/**
 * Nobody's session, as sessionControl behaves for a request that carries none and is answered
 * without a reply object (lean-get.ts): renewing and logging out change nothing a GET sends
 * (it never sets a cookie), a password cannot be confirmed without a user, and a log-in throws
 * NotOnTheLeanPath, so the request is answered by the full path instead.
 */
const NO_SESSION: SessionControl = {
  login() {
    return Promise.reject(new NotOnTheLeanPath('a log-in'));
  },
  logout() {},
  confirmPassword() {
    return Promise.resolve(false);
  },
  renew() {},
};

/** An anonymous GET's context, without Fastify's request and reply (lean-get.ts, ADR 0070). */
export function anonymousContext(
  state: RequestState,
  base: ContextBase,
  address: () => string,
): RequestContext {
  const asking: Asking = { user: null, sessionId: null, viaBasic: false };
  const source: ContextSource = { headers: state.raw.headers, body: undefined, bodyType: null, address };
  return contextOf(state, base, source, NO_SESSION, asking);
}

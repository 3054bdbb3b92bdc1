// The RequestContext a handler gets: negotiated facts plus who is asking, the CSRF token for
// its forms, log-in/log-out, and the precondition checks of PUT/DELETE.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setLogUser } from '../../logging/access/index.ts';
import { tooManyAttempts } from '../auth/index.ts';
import { HttpError } from '../errors/http-error.ts';
import type { Principal, RequestContext, SessionControl } from '../resource/types.ts';
import type { Layer } from './layer.ts';
import { checkPreconditions, versionOf } from './preconditions.ts';

/** The negotiated part of the context, computed by the dispatcher. */
export type ContextBase = Pick<RequestContext, 'method' | 'format' | 'lang' | 'query' | 'links' | 'path'>;

export interface Viewer {
  readonly user: Principal | null;
  readonly csrfToken: string | null;
}

/** What kind of body the request carried, from its Content-Type (the body parsers accept only these). */
export function bodyTypeOf(request: FastifyRequest): RequestContext['bodyType'] {
  if (request.body === undefined || request.body === null) return null;
  const type = (header(request, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return null;
}

const ANONYMOUS: Viewer = { user: null, csrfToken: null };

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Who is asking, for pages rendered outside a handler (error pages). Never throws. */
export async function viewerOf(layer: Layer, request: FastifyRequest): Promise<Viewer> {
  try {
    if (layer.security) {
      const auth = await layer.security.security.authentication(request);
      const token = auth.session ? layer.security.tokenFor(auth.session.id) : null;
      return { user: auth.principal, csrfToken: token };
    }
    return { user: layer.authenticate ? await layer.authenticate(request) : null, csrfToken: null };
  } catch {
    return ANONYMOUS;
  }
}

function sessionControl(
  layer: Layer,
  request: FastifyRequest,
  reply: FastifyReply,
  state: { user: Principal | null; sessionId: string | null; viaBasic: boolean },
): SessionControl {
  const secured = layer.security;
  return {
    async login(username, password) {
      if (!secured) throw new Error('log-in needs ResourceAppOptions.security');
      const result = await secured.authenticator.checkPassword(username, password, request.ip);
      if (!result.ok) {
        if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfterSeconds);
        // No WWW-Authenticate: this is a form or API log-in, not a Basic challenge.
        throw new HttpError('SHELFMARK_UNAUTHENTICATED', { detail: 'Wrong user name or password.' });
      }
      const session = secured.cookies.set(reply, result.principal.id, secured.now());
      state.user = result.principal;
      state.sessionId = session.id;
      state.viaBasic = false;
      setLogUser(request.raw, result.principal.username);
      return result.principal;
    },
    logout() {
      if (!secured) return;
      secured.cookies.clear(reply);
      state.sessionId = null;
      if (!state.viaBasic) state.user = null;
    },
  };
}

export async function buildContext(
  layer: Layer,
  request: FastifyRequest,
  reply: FastifyReply,
  base: ContextBase,
): Promise<RequestContext> {
  const state = { user: null as Principal | null, sessionId: null as string | null, viaBasic: false };
  if (layer.security) {
    const auth = await layer.security.security.authentication(request);
    state.user = auth.principal;
    state.sessionId = auth.session?.id ?? null;
    state.viaBasic = auth.via === 'basic';
  } else if (layer.authenticate) {
    state.user = await layer.authenticate(request);
  }
  const secured = layer.security;
  const session = sessionControl(layer, request, reply, state);
  const ctx: RequestContext = {
    ...base,
    body: request.body,
    bodyType: bodyTypeOf(request),
    address: request.ip,
    session,
    // Getters: a log-in or log-out during the handler changes what the response shows.
    get user() {
      return state.user;
    },
    get csrfToken() {
      return secured && state.sessionId !== null ? secured.tokenFor(state.sessionId) : null;
    },
    checkPreconditions(current) {
      const input = {
        method: base.method,
        ifMatch: header(request, 'if-match'),
        ifNoneMatch: header(request, 'if-none-match'),
        body: request.body,
        required: layer.requirePreconditions,
      };
      checkPreconditions(input, current, ctx);
    },
    versionOf: (representation) => versionOf(representation, ctx),
  };
  return ctx;
}

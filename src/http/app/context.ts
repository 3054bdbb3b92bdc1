// The RequestContext a handler gets: negotiated facts plus who is asking, the CSRF token for
// its forms, log-in/log-out, and the precondition checks of PUT/DELETE. Who is asking comes
// from the RequestState, which authenticated once (in the preHandler, or here when first asked).
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal, RequestContext, SessionControl } from '../resource/types.ts';
import { checkPreconditions, versionOf } from './preconditions.ts';
import type { RequestState } from './request-state.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';
import type { FormatChoice } from '../negotiation/format.ts';
import { headerValue } from './layer.ts';
import { sessionControl, type Asking } from './session-control.ts';

/** The negotiated part of the context, computed by the dispatcher. */
export type ContextBase = Pick<
  RequestContext,
  'method' | 'format' | 'formatSource' | 'lang' | 'query' | 'links' | 'path'
>;

/** The negotiated part for a resource request whose format was chosen (the dispatcher). */
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
    sessionExpires: authentication.session?.expires ?? null,
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

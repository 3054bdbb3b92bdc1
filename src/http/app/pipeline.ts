// The one pipeline (ADR 0071): every request passes these stages in this order, on Fastify's
// lifecycle, its RequestState handed along. rewriteUrl (a Fastify option) is in create-app.ts,
// the handler stage in dispatch.ts. STAGES names them for docs/lifecycle.md (a test holds both).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { authenticationError, type Authentication } from '../auth/index.ts';
import { hasBody, refuseBeforeReading, registerBodyParsers } from '../body/index.ts';
import { HttpError } from '../errors/http-error.ts';
import { formMethodOverride } from '../method-override/index.ts';
import type { Layer } from './layer.ts';
import type { ResourceDefinition } from '../resource/types.ts';
import { finishResponse } from './finish-response.ts';
import { answeredFromKept } from './kept-response.ts';
import { mayRefuseUnread, unreadRefusal } from './refuse-unread.ts';
import { stateOf, type RequestState } from './request-state.ts';
import { sendProblemToViewer } from './send-problem.ts';
import { NEAR_LIMIT, warnBodyNearLimit, warnLimitReached, warnSlowRequest } from './warnings.ts';

/** The stages in the order a request meets them, each with the Fastify hook that runs it. */
export const STAGES = [
  { name: 'rewrite', hook: 'rewriteUrl' },
  { name: 'cookies', hook: 'onRequest' },
  { name: 'start', hook: 'onRequest' },
  { name: 'kept', hook: 'onRequest' },
  { name: 'authenticate', hook: 'preParsing' },
  { name: 'body', hook: 'preParsing' },
  { name: 'authorize', hook: 'preHandler' },
  { name: 'dispatch', hook: 'handler' },
  { name: 'finish', hook: 'onSend' },
  { name: 'slow', hook: 'onResponse' },
  { name: 'problem', hook: 'errorHandler' },
] as const;

/** The resource a route was registered for (create-app.ts), if any. */
function resourceOf(request: FastifyRequest): ResourceDefinition | undefined {
  return (request.routeOptions.config as { resource?: ResourceDefinition } | undefined)?.resource;
}

/** What `OPTIONS *` answers: every method some resource may allow. */
const SERVER_ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** A request arriving while the app closes: 503, and the connection closes after it. */
const closingError = () =>
  new HttpError('SHELFMARK_SERVICE_UNAVAILABLE', {
    detail: 'The server is shutting down; ask again.',
    headers: { Connection: 'close' },
  });

/**
 * start: a request while the app closes (Fastify's return503OnClosing, as a problem that passes
 * every later stage); `OPTIONS *`; what rewriteUrl found unservable (routed to `/`).
 */
function refuseUnservable(state: RequestState, reply: FastifyReply, closing: boolean): boolean {
  if (closing) throw closingError();
  const resolved = state.resolved;
  if (resolved.kind === 'star') {
    if (state.raw.method !== 'OPTIONS')
      throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: '* is a target for OPTIONS only.' });
    reply.code(204).header('Allow', SERVER_ALLOW).send();
    return true;
  }
  if (resolved.kind === 'not-found') throw new HttpError('SHELFMARK_NOT_FOUND');
  if (resolved.kind === 'bad-request')
    throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: resolved.detail });
  return false;
}

/**
 * Apache's error-log entry for a failed Basic attempt (refusal-log.ts): malformed credentials
 * were never looked up, so they are an unknown user. A 429 is logged with its problem.
 */
function logFailedBasic(layer: Layer, state: RequestState, auth: Authentication): void {
  if (auth.failure !== 'malformed' && auth.failure !== 'bad-credentials') return;
  const unknown = auth.failure === 'malformed' || auth.unknownUser === true;
  layer.refusals.authenticationFailed(state.raw, state.originalUrl, auth.logUser ?? '', unknown);
  if (auth.limitReached) warnLimitReached(layer.errorLog, state.raw, auth.logUser ?? '', auth.limitReached);
}

/**
 * authenticate, before the body is read (it needs none): who is asking (memoised in the state;
 * names %u). A failed Basic attempt → 401 / 429 without reading what it sent.
 */
async function authenticate(layer: Layer, state: RequestState, request: FastifyRequest): Promise<void> {
  const authentication = await state.authentication(request);
  const failed = authenticationError(authentication);
  if (failed) {
    logFailedBasic(layer, state, authentication);
    throw failed;
  }
}

/**
 * authorize, after the body is parsed (`_csrf` and `_method` may be form fields):
 *   1. CSRF on the real method (a form POST carrying _method=DELETE is checked as a POST; the
 *      POST to the log-in path gets the origin check only — there is no session yet);
 *   2. the form's method override, which the dispatcher reads from state.methodOverride.
 */
async function authorizeAndOverride(layer: Layer, state: RequestState, request: FastifyRequest) {
  // The form's `_method`, or the 400 it deserves (thrown only after the CSRF check).
  let override: 'PUT' | 'DELETE' | null = null;
  let overrideError: unknown;
  if (request.method === 'POST')
    try {
      override = formMethodOverride({ method: 'POST', bodyType: state.bodyType, body: request.body });
    } catch (error) {
      overrideError = error;
    }
  const auth = layer.auth;
  if (auth) {
    const authentication = await state.authentication(request);
    const resolved = state.resolved;
    const login =
      request.method === 'POST' &&
      auth.loginPath !== undefined &&
      resolved.kind === 'resource' &&
      resolved.path === auth.loginPath &&
      override === null &&
      overrideError === undefined;
    auth.csrf.check(
      {
        method: request.method,
        headers: request.headers,
        body: request.body,
        auth: authentication.via ?? 'none',
        sessionId: authentication.session?.id ?? null,
        login,
        publicOrigin: state.publicBase.origin,
      },
      auth.now(),
    );
  }
  if (overrideError !== undefined) throw overrideError;
  if (override) state.methodOverride = override;
}

export async function registerPipeline(app: FastifyInstance, layer: Layer): Promise<void> {
  // The slot each request's state is handed over in (filled by `start`, stateOf).
  app.decorateRequest('state', null as unknown as RequestState);
  // Set when the app starts closing (Fastify's own 503 while closing is off: it skips the stages).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // cookies: parsed even for requests a later stage refuses (their error pages show who is
  // logged in). No secret: the session value carries its own HMAC.
  await app.register(fastifyCookie);
  // start, then kept: hooks that need not wait take Fastify's callback form — no promise and
  // no extra microtask turn per hook and request (ADR 0066). A sent reply ends the lifecycle
  // there (Fastify's rule), and the finishing stage still runs for it.
  app.addHook('onRequest', (request, reply, done) => {
    let answered: boolean | Promise<boolean>;
    try {
      const state = stateOf(layer, request);
      answered = refuseUnservable(state, reply, closing) || answeredFromKept(layer, state, request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (answered === false) done();
    else if (answered !== true)
      answered.then((sent) => {
        if (!sent) done();
      }, done);
  });
  // authenticate, then body: 401 / 429 before a byte is read, then 415 / 413, then the
  // content-type parsers fill request.body.
  const mediaTypeOf = (request: FastifyRequest) => request.state.mediaType;
  const refuseBody = (request: FastifyRequest) => refuseBeforeReading(request, mediaTypeOf, layer.bodyLimit);
  // Then a write its handler refuses for this client whatever the body: answered unread
  // (refuse-unread.ts, ADR 0077). Only writes with a body to such a resource wait for it.
  const readBody = async (request: FastifyRequest): Promise<void> => {
    await authenticate(layer, request.state, request);
    refuseBody(request);
    const resource = resourceOf(request);
    if (resource && hasBody(request.headers) && mayRefuseUnread(resource, request.method)) {
      const refusal = await unreadRefusal(request.state, request, resource);
      if (refusal) throw refusal;
    }
  };
  // Callback form: a request that plainly carries no credentials has nothing to await (most
  // reads), so it goes on in the same turn (ADR 0066's reason for callback hooks).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const anonymous = layer.auth === undefined || request.state.isPlainlyAnonymous(request);
    if (anonymous && !(layer.auth && hasBody(request.headers))) {
      try {
        refuseBody(request);
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, payload);
      return;
    }
    readBody(request).then(() => done(null, payload), done);
  });
  registerBodyParsers(app, {
    limit: layer.bodyLimit,
    mediaTypeOf,
    onBodyRead: (request, size) => {
      if (size >= layer.bodyLimit * NEAR_LIMIT)
        warnBodyNearLimit(layer.errorLog, request.raw, size, layer.bodyLimit);
    },
  });
  // A safe method passes the CSRF check unread and has no form override: nothing to await.
  app.addHook('preHandler', (request, _reply, done) => {
    const method = request.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
      done();
      return;
    }
    authorizeAndOverride(layer, request.state, request).then(() => done(), done);
  });
  // (dispatch: dispatch.ts, one route per resource path, added by create-app.ts)
  // finish, one hook: first the bodies that sendPrepared did not compress (problems,
  // applications' own routes), then the headers every response carries.
  app.addHook('onSend', (request, reply, payload, done) => {
    let sent: unknown;
    try {
      sent = finishResponse(layer, stateOf(layer, request), request, reply, payload);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, sent);
  });
  // slow: a slow answer is a warning; an event stream (the live error log) is long by design.
  const slow = layer.slowRequestMs;
  if (slow !== undefined)
    app.addHook('onResponse', (request, reply, done) => {
      if (
        reply.elapsedTime > slow &&
        !String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')
      )
        warnSlowRequest(
          layer.errorLog,
          request.raw,
          stateOf(layer, request).originalUrl,
          reply.elapsedTime,
          slow,
        );
      done();
    });
  // problem: errors thrown anywhere above, Fastify's own client errors, and unknown paths.
  app.setErrorHandler((error, request, reply) => sendProblemToViewer(layer, request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendProblemToViewer(layer, request, reply, new HttpError('SHELFMARK_NOT_FOUND')),
  );
}

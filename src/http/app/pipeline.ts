// Every hook of the resource layer, registered here and nowhere else, in the order a request
// meets them (docs/lifecycle.md; rewriteUrl, which creates the RequestState, is a Fastify
// option and so lives in create-app.ts). Each hook reads and fills the request's RequestState.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { authenticationError, type Authentication } from '../auth/index.ts';
import { hasBody, refuseBeforeReading, registerBodyParsers } from '../body/index.ts';
import { HttpError } from '../errors/http-error.ts';
import { formMethodOverride } from '../method-override/index.ts';
import type { Layer } from './layer.ts';
import type { ResourceDefinition } from '../resource/types.ts';
import { finishResponse } from './finish-response.ts';
import { mayRefuseUnread, unreadRefusal } from './refuse-unread.ts';
import { stateOf, type RequestState } from './request-state.ts';
import { sendProblemToViewer } from './send-problem.ts';
import { NEAR_LIMIT, warnBodyNearLimit, warnLimitReached, warnSlowRequest } from './warnings.ts';

/** The resource a route was registered for (create-app.ts), if any. */
function resourceOf(request: FastifyRequest): ResourceDefinition | undefined {
  return (request.routeOptions.config as { resource?: ResourceDefinition } | undefined)?.resource;
}

/** What `OPTIONS *` answers: every method some resource may allow. */
const SERVER_ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** onRequest: `OPTIONS *`, and what rewriteUrl found unservable (routed to `/` so no route sees it). */
function refuseUnservable(layer: Layer, request: FastifyRequest, reply: FastifyReply): boolean {
  const resolved = stateOf(layer, request).resolved;
  if (resolved.kind === 'star') {
    if (request.method !== 'OPTIONS')
      throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: '* is a target for OPTIONS only.' });
    reply.code(204).header('Allow', SERVER_ALLOW).send();
    return true;
  }
  if (resolved.kind === 'not-found') throw new HttpError('SHELFMARK_NOT_FOUND');
  if (resolved.kind === 'bad-request')
    throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: resolved.detail });
  return false;
}

interface FormOverride {
  readonly method: 'PUT' | 'DELETE' | null;
  readonly error: unknown;
}
const NO_OVERRIDE: FormOverride = { method: null, error: undefined };

/** The form's `_method`, or the 400 it deserves (thrown only after the CSRF check). */
function formOverride(state: RequestState, request: FastifyRequest): FormOverride {
  try {
    const method = formMethodOverride({
      method: request.method,
      bodyType: state.bodyType,
      body: request.body,
    });
    return { method, error: undefined };
  } catch (error) {
    return { method: null, error };
  }
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
 * preHandler, after the body is parsed (`_csrf` and `_method` may be form fields):
 *   1. who is asking (memoised in the state; names %u) — a failed Basic attempt → 401 / 429;
 *   2. CSRF on the real method (a form POST carrying _method=DELETE is checked as a POST; the
 *      POST to the log-in path gets the origin check only — there is no session yet);
 *   3. the form's method override, which the dispatcher reads from state.methodOverride.
 */
async function authorizeAndOverride(layer: Layer, request: FastifyRequest) {
  const state = stateOf(layer, request);
  const override = request.method === 'POST' ? formOverride(state, request) : NO_OVERRIDE;
  const auth = layer.auth;
  if (auth) {
    const authentication = await state.authentication(request);
    const failed = authenticationError(authentication);
    if (failed) {
      logFailedBasic(layer, state, authentication);
      throw failed;
    }
    const resolved = state.resolved;
    const login =
      request.method === 'POST' &&
      auth.loginPath !== undefined &&
      resolved.kind === 'resource' &&
      resolved.path === auth.loginPath &&
      override.method === null &&
      override.error === undefined;
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
  if (override.error !== undefined) throw override.error;
  if (override.method) state.methodOverride = override.method;
}

export async function registerPipeline(app: FastifyInstance, layer: Layer): Promise<void> {
  // onRequest, first: the cookie is parsed even for requests the next hook refuses (their
  // error pages show who is logged in). No secret: the session value carries its own HMAC.
  await app.register(fastifyCookie);
  // Hooks that need not wait for anything take Fastify's callback form: no promise and no
  // extra microtask turn per hook and request (ADR 0066).
  app.addHook('onRequest', (request, reply, done) => {
    let answered: boolean;
    try {
      answered = refuseUnservable(layer, request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    // `OPTIONS *` was answered: the lifecycle stops here (Fastify's rule for a sent reply).
    if (!answered) done();
  });
  // preParsing → content-type parsers: 415 / 413 before a byte is read, then request.body.
  const mediaTypeOf = (request: FastifyRequest) => stateOf(layer, request).mediaType;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    try {
      refuseBeforeReading(request, mediaTypeOf, layer.bodyLimit);
    } catch (error) {
      done(error as Error);
      return;
    }
    // Then a write its handler refuses for this client whatever the body: answered unread
    // (refuse-unread.ts, ADR 0077). Only writes with a body to such a resource wait for it.
    const resource = resourceOf(request);
    if (!layer.auth || !hasBody(request.headers) || !mayRefuseUnread(resource, request.method) || !resource) {
      done(null, payload);
      return;
    }
    const state = stateOf(layer, request);
    unreadRefusal(state, request, resource, (auth) => logFailedBasic(layer, state, auth)).then(
      (refusal) => (refusal ? done(refusal) : done(null, payload)),
      (error: unknown) => done(error as Error),
    );
  });
  registerBodyParsers(app, {
    limit: layer.bodyLimit,
    mediaTypeOf,
    onBodyRead: (request, size) => {
      if (size >= layer.bodyLimit * NEAR_LIMIT)
        warnBodyNearLimit(layer.errorLog, request.raw, size, layer.bodyLimit);
    },
  });
  app.addHook('preHandler', (request) => authorizeAndOverride(layer, request));
  // (the handler: dispatch.ts, one route per resource path, added by create-app.ts)
  // onSend, one hook: first the bodies that sendPrepared did not compress (problems,
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
  // A slow answer is a warning; an event stream (the live error log) is long by design.
  const slow = layer.slowRequestMs;
  if (slow !== undefined)
    app.addHook('onResponse', async (request, reply) => {
      if (reply.elapsedTime <= slow) return;
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
      warnSlowRequest(
        layer.errorLog,
        request.raw,
        stateOf(layer, request).originalUrl,
        reply.elapsedTime,
        slow,
      );
    });
  // Errors thrown anywhere above, Fastify's own client errors, and unknown paths.
  app.setErrorHandler((error, request, reply) => sendProblemToViewer(layer, request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendProblemToViewer(layer, request, reply, new HttpError('SHELFMARK_NOT_FOUND')),
  );
}

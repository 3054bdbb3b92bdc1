// The lean path (ADR 0070): an anonymous, unconditional GET or HEAD of a cacheable resource that
// the cache front did not answer (a miss, or the cache is off) is rendered and sent without
// Fastify's lifecycle — no routing, hooks, request and reply objects, cookie parsing or
// authentication, none of which can change such an answer. Its headers come from the functions
// the full path uses (preparedResponse, finishResponse), in the same order.
//
// It answers only a 200 representation. Anything else goes on to Fastify: a request it cannot
// take (a session, credentials, a conditional, a body, a resource that is not cacheable, no
// acceptable format), and one whose handler threw or answered otherwise (a redirect, 404, 410,
// a database fault). The handler's outcome or error travels with the request (leanResultOf),
// so the full path answers it without running the handler a second time: once logged, once
// waited for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { Handler, Outcome, ResourceDefinition } from '../resource/types.ts';
import { anonymousContext, negotiated } from './context.ts';
import { NotOnTheLeanPath } from './session-control.ts';
import { isOutcome, preparedGet, renderedGet } from './cached-get.ts';
import { takesFullPath } from './cache-front.ts';
import { finishResponse } from './finish-response.ts';
import { HeaderRecord } from './header-target.ts';
import type { Layer } from './layer.ts';
import { RequestState } from './request-state.ts';
import { preparedResponse, type RespondContext } from './respond.ts';
import type { CachedRepresentation } from '../cache/index.ts';
import { warnSlowRequest } from './warnings.ts';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the lean path's handler call came to, when it was not a 200 (see leanResultOf). */
export type LeanResult = { readonly outcome: Outcome } | { readonly error: unknown };

const results = new WeakMap<IncomingMessage, LeanResult>();

/**
 * The handler's outcome or error for a request the lean path passed on after running it, once:
 * the dispatcher answers it instead of running the handler again (same request, same handler).
 */
export function leanResultOf(req: IncomingMessage): LeanResult | undefined {
  const result = results.get(req);
  if (result !== undefined) results.delete(req);
  return result;
}

/** The resource and its GET handler for an anonymous GET/HEAD the lean path may answer. */
interface Target {
  readonly state: RequestState;
  readonly resource: ResourceDefinition;
  readonly handler: Handler;
  readonly rc: RespondContext;
}

function targetOf(
  layer: Layer,
  byPath: ReadonlyMap<string, ResourceDefinition>,
  req: IncomingMessage,
): Target | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  // Anonymous only: who is asking is then known without authenticating (no Basic, no session).
  if (req.headers.authorization !== undefined || takesFullPath(req.headers)) return undefined;
  const state = new RequestState(layer, req, req.url ?? '/');
  const resolved = state.resolved;
  if (resolved.kind !== 'resource') return undefined;
  const at = resolved.routedUrl.indexOf('?');
  const resource = byPath.get(at < 0 ? resolved.routedUrl : resolved.routedUrl.slice(0, at));
  const handler = resource?.methods.GET;
  if (resource === undefined || handler === undefined) return undefined;
  if (resource.methodsAt !== undefined && !resource.methodsAt(resolved.query).includes('GET'))
    return undefined;
  const choice = state.choice;
  if (!choice.ok) return undefined; // 406: the full path's problem answer
  const ctx = anonymousContext(
    state,
    negotiated(state, resolved, req.method, choice),
    // What Fastify's request.ip is with trustProxy (request.js): the nearest untrusted hop.
    () => proxyAddr(req, layer.trust),
  );
  const rc = { ctx, source: choice.source, clientQuery: resolved.clientQuery, suffix: resolved.suffix };
  return { state, resource, handler, rc };
}

/** The 200 as prepared bytes, or the handler's other outcome: through the cache as cachedGet. */
function answerOf(layer: Layer, target: Target): Promise<CachedRepresentation | Outcome> {
  const { state, resource, handler, rc } = target;
  return layer.cache ? preparedGet(layer.cache, state, resource.name, handler, rc) : renderedGet(handler, rc);
}

/** Writes the answer as Fastify would (reply.js onSendEnd): headers, Content-Length, body. */
function send(layer: Layer, target: Target, prepared: CachedRepresentation, res: ServerResponse): void {
  const { state } = target;
  const req = state.raw;
  const head = req.method === 'HEAD';
  const source = { method: head ? 'HEAD' : 'GET', headers: req.headers };
  const record = new HeaderRecord();
  const answer = preparedResponse(source, record, prepared, source.method);
  record.statusCode = answer.status;
  // sendBody: a HEAD states the length it would have sent, and sends nothing.
  if (head && answer.body !== undefined) record.header('Content-Length', String(answer.body.byteLength));
  const payload = finishResponse(layer, state, source, record, head ? undefined : answer.body);
  if (Buffer.isBuffer(payload)) record.header('Content-Length', String(payload.byteLength));
  res.writeHead(record.statusCode, record.getHeaders());
  if (Buffer.isBuffer(payload)) res.end(payload);
  else res.end();
}

/**
 * The application's request handler with the lean path in front of it. `resources` are the
 * layer's resources: only those marked `cacheable` (rendered from the database alone, the same
 * for every anonymous client) are answered here.
 */
export function leanGet(
  layer: Layer,
  resources: readonly ResourceDefinition[],
  next: RequestHandler,
): RequestHandler {
  const byPath = new Map(resources.filter((r) => r.cacheable === true).map((r) => [r.path, r]));
  const slow = layer.slowRequestMs;
  return function lean(req, res) {
    let target: Target | undefined;
    try {
      target = targetOf(layer, byPath, req);
    } catch {
      target = undefined; // whatever it was, the full path meets it again and answers it
    }
    if (target === undefined) return next(req, res);
    const found = target;
    const started = performance.now();
    answerOf(layer, found).then(
      (answer) => {
        if (isOutcome(answer)) {
          results.set(req, { outcome: answer });
          return next(req, res);
        }
        try {
          send(layer, found, answer, res);
        } catch {
          // A header Node refuses (finishResponse's check) is the full path's 500 problem.
          if (!res.headersSent) return next(req, res);
          return;
        }
        const elapsed = performance.now() - started;
        if (slow !== undefined && elapsed > slow)
          warnSlowRequest(layer.errorLog, req, found.state.originalUrl, elapsed, slow);
      },
      (error: unknown) => {
        if (!(error instanceof NotOnTheLeanPath)) results.set(req, { error });
        next(req, res);
      },
    );
  };
}

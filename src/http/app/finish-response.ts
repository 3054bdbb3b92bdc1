// What every response of the layer carries, set last (the onSend hook of pipeline.ts, and the
// lean path's answers, lean-get.ts): the bodies sendPrepared did not compress, then the
// headers of every response, then — for a GET the front may answer next time — the finished
// response kept for it. One function, so that both paths send the same headers in the same
// order (ADR 0070).
import { keepForFront } from './cache-front.ts';
import { setCacheability } from './cacheability.ts';
import { compressRest } from './compress-rest.ts';
import { checkHeaders } from './header-check.ts';
import type { HeaderSource, HeaderTarget } from './header-target.ts';
import type { Layer } from './layer.ts';
import type { RequestState } from './request-state.ts';
import { setSecurityHeaders } from './security-headers.ts';

function finishHeaders(layer: Layer, state: RequestState, request: HeaderSource, reply: HeaderTarget): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  setCacheability(state, request, reply);
  setSecurityHeaders(reply, layer.base.origin.startsWith('https:'));
  layer.cors.setHeaders(
    state.methodOverride ?? request.method,
    state.resolved.kind === 'resource',
    request,
    reply,
  );
  // GET and HEAD never change anything, so they never set a cookie (docs/methods.md).
  if (request.method === 'GET' || request.method === 'HEAD') reply.removeHeader('Set-Cookie');
  // Last: a header Node would refuse becomes a 500 problem here, not Fastify's default body.
  checkHeaders(reply);
}

/** The payload to write, after every header is set; throws InvalidHeaderError (→ 500). */
export function finishResponse(
  layer: Layer,
  state: RequestState,
  request: HeaderSource,
  reply: HeaderTarget,
  payload: unknown,
): unknown {
  const sent = compressRest(request, reply, payload);
  finishHeaders(layer, state, request, reply);
  const capture = state.wireCapture;
  if (capture && layer.cache) keepForFront(layer.cache, capture, reply, sent);
  return sent;
}

// The finishing stage (the onSend hook of pipeline.ts), run for every answer of the layer —
// rendered, kept, refused, failed or from a plain route: the bodies sendPrepared did not
// compress, a keyed GET's response kept for the early exit, then the headers every response
// carries.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keepResponse, representationHeaders } from './kept-response.ts';
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
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  const sent = compressRest(request, reply, payload);
  const { kept, keptCapture } = state;
  // What the dispatcher set, taken before the headers every answer gets (which the early exit's
  // answers get here too), kept only once those are set without fault.
  const headers = kept && keptCapture ? representationHeaders(request, reply, sent) : undefined;
  finishHeaders(layer, state, request, reply);
  if (headers && layer.cache) keepResponse(layer.cache, kept!, keptCapture!, headers, sent as Buffer);
  return sent;
}

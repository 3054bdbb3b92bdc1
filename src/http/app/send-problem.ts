// Every error answer goes through here: problem details in the negotiated format (docs/methods.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES } from '../negotiation/format.ts';
import { toProblem } from '../errors/to-problem.ts';
import { problemJson, problemXml, PROBLEM_JSON, PROBLEM_XML, type Problem } from '../errors/problem.ts';
import { builtInErrorPage } from '../errors/error-page.ts';
import { linkHeader, sendBody, varyOf, type Layer } from './layer.ts';
import { viewerOf, type Viewer } from './context.ts';
import { dropUnwritableHeaders } from './finish-response.ts';
import { stateOf, type RequestState } from './request-state.ts';
import { HttpError } from '../errors/http-error.ts';

function reportOnce(state: RequestState, error: unknown): void {
  if (!state.firstReport(error)) return;
  try {
    state.layer.reportError?.(error, state.raw);
  } catch {
    // A failing logger must not turn one error into two responses.
  }
}

function htmlBody(state: RequestState, problem: Problem, viewer: Viewer | undefined): string {
  const { resolved } = state;
  const path = resolved.kind === 'resource' || resolved.kind === 'passthrough' ? resolved.path : '';
  const query = resolved.kind === 'resource' ? resolved.clientQuery : new URLSearchParams();
  const ctx = { lang: state.lang, links: state.links, path, query, ...viewer };
  try {
    return state.layer.errorPage(problem, ctx).text;
  } catch (pageError) {
    // The application's layout failed while showing an error: report it, fall back to plain.
    reportOnce(state, pageError);
    return builtInErrorPage(problem, ctx).text;
  }
}

export function sendProblem(
  layer: Layer,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  viewer?: Viewer,
): FastifyReply {
  const state = stateOf(layer, request);
  const { problem, headers, unexpected, report } = toProblem(error, state.instance, layer.displayErrors);
  if (report) reportOnce(state, error);
  const { format, source } = state.errorFormat;
  reply.code(problem.status);
  reply.removeHeader('Content-Location');
  reply.removeHeader('ETag');
  reply.removeHeader('Last-Modified');
  // A problem redirects nowhere (a failed 201 or 303 must not keep its Location) and must go
  // out even when the failure was a header value Node refuses.
  reply.removeHeader('Location');
  // Nor does it keep the coding of the body it replaces: the finishing stage codes its own.
  reply.removeHeader('Content-Encoding');
  state.bodyCoded = false;
  dropUnwritableHeaders(reply);
  reply.header('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  const vary = varyOf(source, format);
  if (vary !== undefined) reply.header('Vary', vary);
  if (unexpected && !layer.displayErrors) {
    reply.removeHeader('Content-Type');
    return reply.send();
  }
  if (format === 'html') {
    reply.header('Content-Type', CONTENT_TYPES.html);
    // The page is in the negotiated language (its text from the problem's localDetail).
    reply.header('Content-Language', state.lang);
    return sendBody(request, reply, htmlBody(state, problem, viewer));
  }
  const ext = format === 'xml' ? 'xsd' : 'json';
  reply.header(
    'Link',
    linkHeader([{ url: state.links.absolute(`/schema/problem.${ext}`), rel: 'describedby' }]),
  );
  reply.header('Content-Type', format === 'xml' ? PROBLEM_XML : PROBLEM_JSON);
  // title and detail of a problem body are English whatever Accept-Language says (ADR 0029).
  reply.header('Content-Language', 'en');
  return sendBody(request, reply, format === 'xml' ? problemXml(problem) : problemJson(problem));
}

/** Apache's error-log entry for a refusal (refusal-log.ts): a 403 to a logged-in user, 429, 404. */
async function logRefusal(state: RequestState, request: FastifyRequest, error: unknown): Promise<void> {
  if (!(error instanceof HttpError)) return;
  const { refusals } = state.layer;
  const { raw, originalUrl } = state;
  if (error.code === 'SHELFMARK_NOT_FOUND') refusals.notFound(raw, originalUrl);
  else if (error.code === 'SHELFMARK_TOO_MANY_REQUESTS') refusals.clientDenied(raw, originalUrl);
  else if (error.code === 'SHELFMARK_FORBIDDEN') {
    const auth = await state.authentication(request).catch(() => undefined);
    const user = auth?.logUser ?? auth?.principal?.username;
    if (auth?.principal && user !== undefined) refusals.authorizationFailed(raw, originalUrl, user);
  }
}

/** sendProblem, with who is asking shown on an HTML error page (its layout's header, a 403's form). */
export async function sendProblemToViewer(
  layer: Layer,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): Promise<FastifyReply> {
  const state = stateOf(layer, request);
  await logRefusal(state, request, error);
  const html = state.errorFormat.format === 'html';
  return sendProblem(layer, request, reply, error, html ? await viewerOf(state, request) : undefined);
}

// Every error answer goes through here: problem details in the negotiated format (design §6).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES } from '../negotiation/format.ts';
import { toProblem } from '../errors/to-problem.ts';
import { problemJson, problemXml, PROBLEM_JSON, PROBLEM_XML, type Problem } from '../errors/problem.ts';
import { builtInErrorPage } from '../errors/error-page.ts';
import type { RequestInfo } from './request-info.ts';
import { infoOf, linkHeader, sendBody, setVary, type Layer } from './layer.ts';
import { viewerOf, type Viewer } from './context.ts';

const reported = new WeakSet<object>();

function reportOnce(layer: Layer, request: FastifyRequest, error: unknown): void {
  const key = typeof error === 'object' && error !== null ? error : request.raw;
  if (reported.has(key)) return;
  reported.add(key);
  try {
    layer.reportError?.(error, request.raw);
  } catch {
    // A failing logger must not turn one error into two responses.
  }
}

function htmlBody(
  layer: Layer,
  problem: Problem,
  info: RequestInfo,
  request: FastifyRequest,
  viewer: Viewer | undefined,
): string {
  const path =
    info.resolved.kind === 'resource' || info.resolved.kind === 'passthrough' ? info.resolved.path : '';
  const query = info.resolved.kind === 'resource' ? info.resolved.clientQuery : new URLSearchParams();
  const ctx = { lang: info.lang, links: info.links, path, query, ...viewer };
  try {
    return layer.errorPage(problem, ctx).text;
  } catch (pageError) {
    // The application's layout failed while showing an error: report it, fall back to plain.
    reportOnce(layer, request, pageError);
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
  const info = infoOf(layer, request);
  const { problem, headers, unexpected } = toProblem(error, info.instance, layer.displayErrors);
  if (unexpected) reportOnce(layer, request, error);
  const { format, source } = info.errorFormat;
  reply.code(problem.status);
  reply.removeHeader('Content-Location');
  reply.removeHeader('ETag');
  reply.removeHeader('Last-Modified');
  reply.header('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  setVary(reply, source, format);
  if (unexpected && !layer.displayErrors) {
    reply.removeHeader('Content-Type');
    return reply.send();
  }
  if (format === 'html') {
    reply.header('Content-Type', CONTENT_TYPES.html);
    return sendBody(request, reply, htmlBody(layer, problem, info, request, viewer));
  }
  const ext = format === 'xml' ? 'xsd' : 'json';
  reply.header(
    'Link',
    linkHeader([{ url: info.links.absolute(`/schema/problem.${ext}`), rel: 'describedby' }]),
  );
  reply.header('Content-Type', format === 'xml' ? PROBLEM_XML : PROBLEM_JSON);
  return sendBody(request, reply, format === 'xml' ? problemXml(problem) : problemJson(problem));
}

/** sendProblem, with who is asking shown on an HTML error page (its layout's header, a 403's form). */
export async function sendProblemToViewer(
  layer: Layer,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): Promise<FastifyReply> {
  const html = infoOf(layer, request).errorFormat.format === 'html';
  return sendProblem(layer, request, reply, error, html ? await viewerOf(layer, request) : undefined);
}

// Assembles the resource layer on Fastify: URL rewriting before routing, one route per
// resource path, hooks for what every response needs, problem details for every error.
// docs/lifecycle.md walks through a request step by step.
import Fastify, { type FastifyInstance } from 'fastify';
import { compileTrust, parseBase } from '../links/links.ts';
import { resolveUrl, type UrlSpace } from '../rewrite/resolve.ts';
import { builtInErrorPage } from '../errors/error-page.ts';
import { HttpError } from '../errors/http-error.ts';
import { problemSchemas } from '../errors/schema/schemas.ts';
import { rememberRequest, requestState } from './request-state.ts';
import { dispatcher, ROUTED_METHODS } from './dispatch.ts';
import { sendProblem, sendProblemToViewer } from './send-problem.ts';
import { createLayerSecurity, registerRequestPipeline } from './security.ts';
import type { Layer } from './layer.ts';
import type { ResourceAppOptions } from './options.ts';

/** What `OPTIONS *` answers: every method some resource may allow. */
const SERVER_ALLOW = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';
const PROBLEM_SCHEMA_PATHS = ['/schema/problem.xsd', '/schema/problem.json'];

function internalUrl(url: string, space: UrlSpace): string {
  const resolved = resolveUrl(url, space);
  // Anything that is not a resource or passthrough is answered by the onRequest hook; route
  // it to the root so no application route (and no route-level hook) sees it.
  return resolved.kind === 'resource' || resolved.kind === 'passthrough' ? resolved.routedUrl : '/';
}

export async function createResourceApp(o: ResourceAppOptions): Promise<FastifyInstance> {
  const base = parseBase(o.baseUrl);
  const trust = compileTrust(o.trustProxy);
  const space: UrlSpace = {
    basePath: base.basePath,
    rules: o.rewrites,
    passthrough: [...(o.passthrough ?? []), ...PROBLEM_SCHEMA_PATHS],
  };
  const secured = o.security ? createLayerSecurity(o.security, o.baseUrl, o.loginPath) : undefined;
  const layer: Layer = {
    base,
    trust,
    displayErrors: o.displayErrors,
    errorPage: o.errorPage ?? builtInErrorPage,
    reportError: o.reportError,
    authenticate: o.authenticate,
    security: secured?.layer,
    requirePreconditions: o.requirePreconditions ?? false,
  };
  const app = Fastify({
    logger: false,
    trustProxy: trust,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    ...(o.bodyLimit !== undefined && { bodyLimit: o.bodyLimit }),
    ...(o.serverFactory !== undefined && { serverFactory: o.serverFactory }),
    ...(o.handlesClientErrors === true && { clientErrorHandler: () => {} }),
    rewriteUrl(raw) {
      // raw.url is what Fastify routes on; the client's URL stays in the request state (and
      // in raw.originalUrl, which Fastify sets itself).
      const url = raw.url ?? '/';
      rememberRequest(raw, { originalUrl: url, resolved: resolveUrl(url, space) });
      return internalUrl(url, space);
    },
    frameworkErrors(error, request, reply) {
      sendProblem(layer, request, reply, new HttpError('SHELFMARK_BAD_REQUEST', { detail: error.message }));
    },
  });

  // First, so the cookie is parsed even for requests the next hook answers (their error pages).
  await registerRequestPipeline(app, o, secured);
  app.addHook('onRequest', async (request, reply) => {
    const resolved = requestState(request.raw)?.resolved;
    if (resolved?.kind === 'star') {
      if (request.method !== 'OPTIONS')
        throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: '* is a target for OPTIONS only.' });
      return reply.code(204).header('Allow', SERVER_ALLOW).send();
    }
    if (resolved?.kind === 'not-found') throw new HttpError('SHELFMARK_NOT_FOUND');
    if (resolved?.kind === 'bad-request')
      throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: resolved.detail });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // GET and HEAD never change anything, so they never set a cookie (design §6).
    if (request.method === 'GET' || request.method === 'HEAD') reply.removeHeader('Set-Cookie');
    return payload;
  });
  app.setErrorHandler((error, request, reply) => sendProblemToViewer(layer, request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendProblemToViewer(layer, request, reply, new HttpError('SHELFMARK_NOT_FOUND')),
  );

  const schemas = problemSchemas();
  // HEAD too: exposeHeadRoutes is off (the dispatcher answers HEAD for resources itself).
  app.route({
    method: ['GET', 'HEAD'],
    url: '/schema/problem.xsd',
    handler: (_request, reply) => reply.type('application/xml; charset=utf-8').send(schemas.xsd),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/schema/problem.json',
    handler: (_request, reply) => reply.type('application/schema+json; charset=utf-8').send(schemas.json),
  });
  for (const resource of o.resources) {
    app.route({ method: ROUTED_METHODS, url: resource.path, handler: dispatcher(layer, resource) });
  }
  await o.configure?.(app);
  return app;
}

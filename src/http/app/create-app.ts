// Assembles the resource layer on Fastify, the one pipeline every request passes (ADR 0071):
// URL rewriting before routing (which starts the request's RequestState), the stages of
// pipeline.ts, one route per resource path, problem details for every error.
// docs/lifecycle.md walks through a request step by step.
import Fastify, { type FastifyInstance } from 'fastify';
import { compileTrust, parseBase } from '../links/links.ts';
import { DEFAULT_BODY_LIMIT } from '../body/index.ts';
import { builtInErrorPage } from '../errors/error-page.ts';
import { HttpError } from '../errors/http-error.ts';
import { problemSchemas } from '../errors/schema/schemas.ts';
import { routedUrlOf } from './request-state.ts';
import { urlResolver } from '../rewrite/resolve.ts';
import { dispatcher, ROUTED_METHODS } from './dispatch.ts';
import { sendProblem } from './send-problem.ts';
import { createLayerAuth } from './auth.ts';
import { registerPipeline } from './pipeline.ts';
import type { Layer } from './layer.ts';
import type { ResourceAppOptions } from './options.ts';
import { HEALTH_PATH, registerHealthRoute } from '../health/index.ts';
import { createRefusalLog, DEFAULT_DOCUMENT_ROOT } from './refusal-log.ts';
import { corsPolicy } from './cors.ts';

const PROBLEM_SCHEMA_PATHS = ['/schema/problem.xsd', '/schema/problem.json'];

export async function createResourceApp(o: ResourceAppOptions): Promise<FastifyInstance> {
  const base = parseBase(o.baseUrl);
  const trust = compileTrust(o.trustProxy);
  const clock = o.clock ?? Date.now;
  const layer: Layer = {
    base,
    trust,
    resolve: urlResolver({
      basePath: base.basePath,
      rules: o.rewrites,
      passthrough: [
        ...(o.passthrough ?? []),
        ...PROBLEM_SCHEMA_PATHS,
        ...(o.health !== undefined ? [HEALTH_PATH] : []),
      ],
    }),
    displayErrors: o.displayErrors,
    errorPage: o.errorPage ?? builtInErrorPage,
    reportError: o.reportError,
    authenticate: o.authenticate,
    auth: o.security ? createLayerAuth(o.security, o.baseUrl, o.loginPath, clock) : undefined,
    requirePreconditions: o.requirePreconditions ?? false,
    bodyLimit: o.bodyLimit ?? DEFAULT_BODY_LIMIT,
    cache: o.representationCache?.enabled ? o.representationCache : undefined,
    errorLog: o.errorLog,
    refusals: createRefusalLog(o.errorLog, o.documentRoot ?? DEFAULT_DOCUMENT_ROOT),
    slowRequestMs: o.slowRequestMs,
    cors: corsPolicy(o.corsOrigins ?? []),
    clock,
  };
  const app = Fastify({
    logger: false,
    trustProxy: trust,
    exposeHeadRoutes: false,
    // The layer's `start` stage answers 503 while closing (pipeline.ts), through every stage.
    return503OnClosing: false,
    ...(o.bodyLimit !== undefined && { bodyLimit: o.bodyLimit }),
    ...(o.serverFactory !== undefined && { serverFactory: o.serverFactory }),
    ...(o.handlesClientErrors === true && { clientErrorHandler: () => {} }),
    rewriteUrl(raw) {
      // raw.url is what Fastify routes on; the client's URL stays in the request state (and
      // in raw.originalUrl, which Fastify sets itself).
      return routedUrlOf(layer, raw);
    },
    frameworkErrors(error, request, reply) {
      sendProblem(layer, request, reply, new HttpError('SHELFMARK_BAD_REQUEST', { detail: error.message }));
    },
  });

  await registerPipeline(app, layer);

  const schemas = problemSchemas();
  const schemaTypes = { xsd: 'application/xml', json: 'application/schema+json' } as const;
  for (const ext of ['xsd', 'json'] as const)
    // HEAD too: exposeHeadRoutes is off (the dispatcher answers HEAD for resources itself).
    app.route({
      method: ['GET', 'HEAD'],
      url: `/schema/problem.${ext}`,
      handler: (_request, reply) => reply.type(`${schemaTypes[ext]}; charset=utf-8`).send(schemas[ext]),
    });
  if (o.health !== undefined) registerHealthRoute(app, o.health);
  for (const resource of o.resources) {
    // The route's resource, for the pre-parse authorization (refuse-unread.ts).
    app.route({
      method: ROUTED_METHODS,
      url: resource.path,
      handler: dispatcher(layer, resource),
      config: { resource },
    });
  }
  await o.configure?.(app);
  return app;
}

// Fastify placement. Routing happens before the body is parsed, so an override cannot change
// which Fastify route runs. The layer registers ONE route per resource path for all methods
// (app/dispatch.ts); this preHandler hook runs after the body is parsed and records the
// override in the layer's request state (app/request-state.ts overrideMethod); the dispatcher
// then picks the handler by effectiveMethod(request) — PUT/DELETE, or 405 with Allow.
// Register it AFTER the CSRF hook: CSRF is checked on the real POST (design §6), and the
// access log keeps the real method (%m = POST).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { overrideMethod } from '../app/request-state.ts';
import { formMethodOverride, type OverridableMethod } from './override.ts';

export function overrideOf(request: FastifyRequest): OverridableMethod | null {
  return formMethodOverride({
    method: request.method,
    contentType: request.headers['content-type'],
    body: request.body,
  });
}

export function registerMethodOverride(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const method = overrideOf(request);
    if (method) overrideMethod(request, method);
  });
}

// GET /openapi.json (ADR 0057): a plain route outside negotiation (passthrough, so `.json` is
// part of the name), sent like the /schema/ files: public, cacheable, one strong ETag.
import type { FastifyInstance } from 'fastify';
import { prepareFixed, requestLinks, sendPrepared, type CachedRepresentation } from '../../http/index.ts';
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { SESSION_COOKIE } from '../../http/session/index.ts';
import { openApiDocument } from './document.ts';

export const OPENAPI_PATH = '/openapi.json';
export const OPENAPI_CONTENT_TYPE = 'application/vnd.oai.openapi+json; charset=utf-8';

export function registerOpenApiRoute(app: FastifyInstance, resources: readonly ResourceDefinition[]): void {
  // The base URL is configured, so one document per server; built on first use, when the
  // request's links are known.
  let prepared: CachedRepresentation | undefined;
  app.route({
    method: ['GET', 'HEAD'],
    url: OPENAPI_PATH,
    handler: (request, reply) => {
      if (!prepared) {
        const links = requestLinks(request);
        if (!links) throw new Error('/openapi.json needs the resource layer (createResourceApp)');
        const document = openApiDocument({ links, resources, sessionCookie: SESSION_COOKIE });
        prepared = prepareFixed(JSON.stringify(document, null, 2), OPENAPI_CONTENT_TYPE, [
          ['Cache-Control', 'public, max-age=3600'],
          ['X-Content-Type-Options', 'nosniff'],
        ]);
      }
      return sendPrepared(request, reply, prepared);
    },
  });
}

export { openApiDocument, type OpenApiOptions } from './document.ts';
export { DOCUMENTED_PATHS, type DocumentedPath } from './paths.ts';

// Who is asking, for the application's plain Fastify routes (registered by `configure`, outside
// the resource layer's dispatcher): the same memoised authentication that fills ctx.user, so a
// plain route can check access without knowing how sessions or Basic auth work.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../resource/types.ts';

type Resolve = (request: FastifyRequest) => Promise<Principal | null>;
const DECORATION = 'shelfmarkPrincipal';

/** Installs the resolver on every request of `app` (once, at start-up). */
export function registerPrincipal(app: FastifyInstance, resolve: Resolve): void {
  app.decorateRequest(DECORATION, function (this: FastifyRequest) {
    return resolve(this);
  });
}

/**
 * The authenticated user of a request, or null (anonymous, or an app without authentication).
 * A failed Basic attempt never reaches a route: the layer's hook answers 401 first.
 */
export async function requestPrincipal(request: FastifyRequest): Promise<Principal | null> {
  const resolve = (request as unknown as Record<string, unknown>)[DECORATION];
  return typeof resolve === 'function' ? ((await resolve.call(request)) as Principal | null) : null;
}

// `/up` for load balancers and orchestrators: 200 while the database answers, 503 otherwise.
// A plain route (one text/plain representation, no negotiation) that catches its own failure:
// a load balancer asks every few seconds, and a database outage must not add an error-log
// entry per probe (the requests that need the database report the outage). Never cached.
import type { FastifyInstance, FastifyReply } from 'fastify';

export const HEALTH_PATH = '/up';

/** How long the check may take before the answer is 503 (a hung connection is not "up"). */
export const DEFAULT_HEALTH_TIMEOUT_MS = 5000;

export interface HealthOptions {
  /** Resolves when the database answers (one cheap query); rejects or hangs otherwise. */
  readonly check: () => Promise<unknown>;
  readonly timeoutMs?: number;
}

/** 'up', or why not — never throws. */
export async function probe(options: HealthOptions): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      options.check().then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function answer(reply: FastifyReply, state: 'up' | 'down', head: boolean): FastifyReply {
  const body = state === 'up' ? 'up\n' : 'down: the database does not answer\n';
  reply
    .code(state === 'up' ? 200 : 503)
    .header('Cache-Control', 'no-store')
    .type('text/plain; charset=utf-8');
  if (state === 'down') reply.header('Retry-After', '5');
  if (!head) return reply.send(body);
  return reply.header('Content-Length', String(Buffer.byteLength(body))).send();
}

/** GET and HEAD of HEALTH_PATH (under the base path; the layer lists it as passthrough). */
export function registerHealthRoute(app: FastifyInstance, options: HealthOptions): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: HEALTH_PATH,
    handler: async (request, reply) => answer(reply, await probe(options), request.method === 'HEAD'),
  });
}

// `/server-status?auto`: mod_status's machine-readable text (`text/plain; charset=ISO-8859-1`),
// which Prometheus' apache_exporter, collectd, Telegraf and Metricbeat read. The resource layer
// writes HTML, XML and JSON only, so this answer is given by a preHandler hook: after the
// layer's authentication (a wrong Basic password is still its 401), before its dispatcher.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestPrincipal } from '../../http/index.ts';
import { autoText } from '../../logging/index.ts';
import { requireStaff, SERVER_STATUS_PATH } from './access.ts';
import type { ServerStatusOptions } from './resource.ts';

/** The host name the client asked for (httpd's first `?auto` line), printable ASCII only. */
function hostLine(request: FastifyRequest): string {
  return request.hostname.replace(/[^\x21-\x7e]/g, '') || 'localhost';
}

function asksForAuto(request: FastifyRequest): boolean {
  if (request.routeOptions.url !== SERVER_STATUS_PATH) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const query = request.raw.url?.split('?')[1];
  return query !== undefined && new URLSearchParams(query).has('auto');
}

export function registerAutoHook(app: FastifyInstance, opts: ServerStatusOptions): void {
  app.addHook('preHandler', async (request, reply) => {
    if (!asksForAuto(request)) return;
    requireStaff(await requestPrincipal(request));
    const text = autoText(await opts.serverStatus(), hostLine(request));
    reply.code(200).type('text/plain; charset=ISO-8859-1').header('Cache-Control', 'no-store');
    return reply.send(text); // Node sends no body for HEAD, only its length
  });
}

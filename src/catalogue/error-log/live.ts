// `/protokoll/fehler/live`: the error log as Server-Sent Events (docs/decisions/0022). A plain
// Fastify route under a passthrough prefix, since text/event-stream is none of the layer's
// three formats. Staff only; `?stufe=` filters like the page. Each new line is one event:
//   event: entry
//   data: {"zeit":…,"stufe":"warn",…}      (the JSON representation's item shape)
// plus a `: heartbeat` comment every 15 s so proxies keep the connection open. The stream
// ends when the client goes away or the server stops listening (so it does not hold up a
// graceful shutdown), and when the reader is no longer staff: access is checked again every
// `accessCheckMs` (default 10 s) through `currentPrincipal`, so a role taken away (`shelfmark
// user role NAME member`), a removed account or a deleted person ends the stream with a final
// `event: forbidden`, as a Rails ActionController::Live action would on a re-check. A log on stderr (`-`) answers 204, which tells EventSource not to retry.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestPrincipal } from '../../http/index.ts';
import type { Principal } from '../../http/resource/types.ts';
import { followFile, parseErrorLine, passesLevel } from '../../logging/index.ts';
import { LIVE_PATH, requireStaff } from './access.ts';
import { entryJson } from './entry-json.ts';
import { parseLevel } from './resource.ts';

export interface LiveOptions {
  readonly errorLogPath: string;
  readonly heartbeatMs?: number;
  /** How often to check that the server still listens (default 1000 ms). */
  readonly shutdownCheckMs?: number;
  /** The account as it is now (null: gone). Without it, access is checked only at the start. */
  readonly currentPrincipal?: (id: number) => Promise<Principal | null>;
  /** How often to check that the reader is still staff (default 10 000 ms). */
  readonly accessCheckMs?: number;
}

/** Every `everyMs`, asks whether `user` is still staff; calls `revoke` once when not. */
function watchAccess(user: Principal, opts: LiveOptions, revoke: () => void): () => void {
  const current = opts.currentPrincipal;
  if (current === undefined) return () => {};
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    current(user.id)
      .then((now) => {
        if (now?.role !== 'staff') revoke();
      })
      // The database is away: keep streaming (the log itself is still readable) and try again.
      .catch(() => {})
      .finally(() => {
        checking = false;
      });
  }, opts.accessCheckMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}

function stream(request: FastifyRequest, reply: FastifyReply, user: Principal, opts: LiveOptions): void {
  const minLevel = parseLevel(new URLSearchParams(request.url.split('?')[1] ?? '').get('stufe')) ?? undefined;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // Tells nginx not to buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  const follower = followFile(opts.errorLogPath, (text) => {
    const line = parseErrorLine(text);
    if (passesLevel(line, minLevel)) res.write(`event: entry\ndata: ${JSON.stringify(entryJson(line))}\n\n`);
  });
  // The first comment tells the client that every line written from now on will reach it.
  // `ready` never rejects (followFile hands open errors to onError), so nothing is lost here.
  void follower.ready.then(() => res.write(': following\n\n'));
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), opts.heartbeatMs ?? 15_000);
  const server = request.server.server;
  const watchdog = setInterval(() => {
    if (!server.listening) res.end();
  }, opts.shutdownCheckMs ?? 1000);
  heartbeat.unref();
  watchdog.unref();
  const stopWatchingAccess = watchAccess(user, opts, () => {
    // EventSource reconnects after an ordinary end; its next request gets the 403.
    res.end('event: forbidden\ndata: {}\n\n');
  });
  res.on('close', () => {
    clearInterval(heartbeat);
    clearInterval(watchdog);
    stopWatchingAccess();
    follower.close();
  });
}

export function registerLiveRoute(app: FastifyInstance, opts: LiveOptions): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: LIVE_PATH,
    handler: async (request, reply) => {
      const user = await requestPrincipal(request);
      requireStaff(user);
      if (opts.errorLogPath === '-') return reply.code(204).send();
      if (request.method === 'HEAD') {
        return reply.type('text/event-stream; charset=utf-8').header('Cache-Control', 'no-store').send();
      }
      stream(request, reply, user, opts);
      return reply;
    },
  });
}

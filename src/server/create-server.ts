// The node:http server Shelfmark runs on (Fastify's serverFactory): exactly one access-log line
// per request, including the ones Node's parser rejects, which are answered and logged as
// Apache httpd would. The access record, the limits, the client-error path and failed bodies
// each have their own file; this one wires them to the server's events.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AccessLog } from '../logging/access/index.ts';
import type { ErrorLog } from '../logging/error/index.ts';
import { requestContext } from '../logging/error/index.ts';
import {
  applySeen,
  clientAddressOf,
  cutToRequestLine,
  requestLogState,
  servedRecord,
} from './access-record.ts';
import { BodyClock } from './body-clock.ts';
import { failBody } from './body-failure.ts';
import { clientErrorHandler } from './client-error.ts';
import { attachState, stateOf, type ConnectionState } from './connection.ts';
import { CountingResponse } from './counting-response.ts';
import { checkHead, DEFAULT_LIMITS, nodeServerOptions, type ServerLimits } from './limits.ts';
import { entriesOf, REFUSALS, type Rejection } from './rejection.ts';
import { gracefulStop } from './stop.ts';
import { dispatchedRefusal, pathRefusal } from './strict-refusal.ts';
import { rawHeaderValue } from '../logging/access/index.ts';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServerOptions {
  /** The application (Fastify passes its handler to serverFactory). */
  readonly handler: RequestHandler;
  readonly accessLog?: AccessLog | undefined;
  readonly errorLog?: ErrorLog | undefined;
  /** Trusted proxies (addresses, CIDR ranges, `loopback` …) whose X-Forwarded-For is believed. */
  readonly trustProxy?: readonly string[] | undefined;
  readonly limits?: Partial<ServerLimits> | undefined;
  /**
   * %u: the application's name for the request's user, a normal JS string (the server escapes
   * it); undefined → the Basic header's user name, as Apache does.
   */
  readonly accessUser?: ((req: IncomingMessage) => string | undefined) | undefined;
  /**
   * Hides a secret a URL carries (the application's single-use links) in what the access log
   * writes of the request target: %r, %U, %q and the Referer header. Default: as sent.
   */
  readonly maskTarget?: ((target: string) => string) | undefined;
}

export interface ShelfmarkServer extends http.Server {
  /** Stops accepting, lets in-flight requests finish within `graceMs`, then closes the rest. */
  stop(graceMs?: number): Promise<void>;
}

export function createHttpServer(opts: HttpServerOptions): ShelfmarkServer {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const { accessLog, errorLog, handler, accessUser } = opts;
  const clientAddr = clientAddressOf(opts.trustProxy);
  let closing = false;

  // A response ended with end() is logged there, before its last bytes leave, so a client can
  // never hold an answer whose line a kill -9 lost; one the connection cut off before that is
  // logged when it closes. docs/decisions/0011-log-sinks.md
  function logServed(res: CountingResponse, ending: boolean): void {
    const record = accessLog && servedRecord(res, accessUser, ending, opts.maskTarget);
    res.logState = undefined; // one line per request
    if (record) accessLog!.log(record);
  }
  // The log may write a turn's lines together when the turn ends (ADR 0100): until then the
  // answer's end waits, so its last bytes still never leave before its line.
  const untilLogged = accessLog && ((end: () => void) => accessLog.afterWritten(end));
  function holdUntilLogged(res: CountingResponse): ((end: () => void) => void) | undefined {
    const socket = res.socket;
    return socket && !socket.destroyed ? untilLogged : undefined;
  }
  function logClosed(this: CountingResponse): void {
    logServed(this, false);
  }
  class LoggedResponse extends CountingResponse {
    protected override ending(): ((end: () => void) => void) | undefined {
      logServed(this, true);
      return holdUntilLogged(this);
    }
  }

  const server = http.createServer({
    ServerResponse: LoggedResponse,
    ...nodeServerOptions(limits),
  }) as unknown as ShelfmarkServer;

  // Answers a request httpd would refuse before any handler runs (414, missing Host, 417 …).
  function refuse(res: CountingResponse, rejection: Rejection): void {
    const ls = res.logState;
    if (rejection.lineOnly && ls) cutToRequestLine(ls);
    if (rejection.seen && ls) applySeen(ls, rejection.seen);
    if (rejection.beforeAuth && ls) ls.noUser = true;
    const { status, seen } = rejection;
    // The Referer httpd appends is the one in the header table it had read.
    const context = seen
      ? { ...requestContext(res.req), referer: rawHeaderValue(seen.headers, 'referer') }
      : requestContext(res.req);
    for (const entry of entriesOf(rejection))
      errorLog?.log(entry.level, entry.module, entry.message, {
        ...context,
        binary: true,
        osError: entry.osError,
      });
    res.writeHead(status, {
      ...rejection.headers,
      'Content-Type': 'text/html; charset=iso-8859-1',
      'Content-Length': rejection.document.length,
      Connection: 'close',
    });
    res.end(rejection.document);
  }

  // A body is coming: note it for the connection and start mod_reqtimeout's body clock.
  function expectBody(st: ConnectionState, res: CountingResponse, arrived: number): void {
    st.reading = res;
    res.req.once('end', () => st.bodyEnded());
    if (limits.bodyTimeoutMs <= 0) return;
    const socket = res.req.socket;
    st.bodyClock = new BodyClock(limits, () => {
      if (st.reading === res) failBody(st, socket, res, REFUSALS.bodyReadTimeout(), errorLog);
    });
    st.bodyClock.received(arrived);
  }

  function onRequest(req: IncomingMessage, response: ServerResponse): void {
    const res = response as CountingResponse;
    const st = stateOf(req.socket);
    res.logState = requestLogState(req, st, clientAddr);
    res.once('close', logClosed);
    // Before consumeHead drops them: the head's raw bytes, as httpd's parser would read them.
    const strict = st && dispatchedRefusal(st.pending(), req);
    if (st) {
      st.served++;
      const te = req.headers['transfer-encoding'];
      const cl = Number(req.headers['content-length'] ?? 0) || 0;
      const arrived = st.consumeHead(cl, te !== undefined);
      if ((te !== undefined || cl > 0) && req.method !== 'CONNECT') expectBody(st, res, arrived);
    }
    const rejection = strict || checkHead(req, limits) || pathRefusal(req);
    if (rejection) return refuse(res, rejection);
    if (closing) res.setHeader('Connection', 'close');
    handler(req, res);
  }

  server.on('connection', (socket: Socket) => void attachState(socket));
  server.on('request', onRequest);
  // Node answers an Expect other than 100-continue with a bare 417 unless someone listens.
  server.on('checkExpectation', onRequest);
  // Node hands CONNECT over as a raw socket (and drops it unless someone listens): answer it
  // like any request, through a response of our own on that socket.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const res = new LoggedResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => socket.end());
    onRequest(req, res);
  });
  server.on('clientError', clientErrorHandler(accessLog, errorLog));

  server.stop = gracefulStop(server, () => (closing = true));

  return server;
}

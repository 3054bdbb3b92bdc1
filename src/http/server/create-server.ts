// The node:http server Shelfmark runs on (Fastify's serverFactory): exactly one access-log line
// per request, including the ones Node's parser rejects, which are answered and logged as
// Apache httpd would. Limits: docs/decisions/0012-http-server-limits.md.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import proxyaddr from 'proxy-addr';
import { logUserOf, rawHeaderValue, type AccessLog, type AccessRecord } from '../../logging/access/index.ts';
import type { ErrorLog } from '../../logging/error/index.ts';
import { requestContext } from '../../logging/error/index.ts';
import { attachState, stateOf } from './connection.ts';
import { CountingResponse, type RequestLogState } from './counting-response.ts';
import { parseRawHead, REQUEST_LINE_MAX } from './raw-head.ts';
import { decideRejection, errorDocument, rawErrorResponse } from './rejection.ts';

export interface ServerLimits {
  /** Request line + headers (Node's maxHeaderSize); beyond → 400 like httpd's field limit. */
  readonly maxHeaderSize: number;
  /** Time to receive the request head (httpd mod_reqtimeout header=20). */
  readonly headersTimeoutMs: number;
  /** Time to receive the whole request (httpd Timeout 300). */
  readonly requestTimeoutMs: number;
  /** Idle time between requests on a kept-alive connection (httpd KeepAliveTimeout 5). */
  readonly keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above. */
  readonly checkIntervalMs: number;
  /** Longest header field line (httpd LimitRequestFieldSize). */
  readonly fieldSizeMax: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxHeaderSize: 64 * 1024,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  fieldSizeMax: 8190,
};

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServerOptions {
  /** The application (Fastify passes its handler to serverFactory). */
  readonly handler: RequestHandler;
  readonly accessLog?: AccessLog | undefined;
  readonly errorLog?: ErrorLog | undefined;
  /** Trusted proxies (addresses, CIDR ranges, `loopback` …) whose X-Forwarded-For is believed. */
  readonly trustProxy?: readonly string[] | undefined;
  readonly limits?: Partial<ServerLimits> | undefined;
}

export interface ShelfmarkServer extends http.Server {
  /** Stops accepting, lets in-flight requests finish within `graceMs`, then closes the rest. */
  stop(graceMs?: number): Promise<void>;
}

const unmap = (a: string | undefined): string =>
  a === undefined ? '-' : a.startsWith('::ffff:') ? a.slice(7) : a;
const NO_BODY = (method: string | undefined, status: number) =>
  method === 'HEAD' || status === 204 || status === 304 || status < 200;

export function createHttpServer(opts: HttpServerOptions): ShelfmarkServer {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const { accessLog, errorLog, handler } = opts;
  const trust = opts.trustProxy?.length ? proxyaddr.compile([...opts.trustProxy]) : undefined;
  let closing = false;

  const server = http.createServer({
    ServerResponse: CountingResponse,
    maxHeaderSize: limits.maxHeaderSize,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
    requireHostHeader: false, // checked below, so the rejection is logged like httpd's
  }) as unknown as ShelfmarkServer;

  const clientAddr = (req: IncomingMessage): string =>
    unmap(trust ? proxyaddr(req, trust) : req.socket.remoteAddress);

  function logServed(this: CountingResponse): void {
    writeAccessLine(this);
  }

  function writeAccessLine(res: CountingResponse): void {
    const req = res.req;
    const ls = res.logState;
    if (!ls || !accessLog) return;
    const status = ls.statusOverride ?? res.statusCode;
    const record: AccessRecord = {
      remoteAddr: clientAddr(req),
      peerAddr: unmap(req.socket.remoteAddress),
      localPort: req.socket.localPort ?? 0,
      startMs: ls.startMs,
      durationUs: (performance.now() - ls.startHr) * 1000,
      requestLine: ls.requestLine,
      method: ls.method,
      target: ls.target,
      protocol: ls.protocol,
      status,
      bodyBytes: NO_BODY(req.method, status) || !res.headersSent ? 0 : res.bodyBytes,
      user: ls.headersRead ? logUserOf(req, req.rawHeaders) : undefined,
      requestHeader: ls.headersRead ? (n) => rawHeaderValue(req.rawHeaders, n) : () => undefined,
      responseHeader: (n) => res.sentHeader(n),
    };
    accessLog.log(record);
  }

  // Answers a request Shelfmark refuses before the application sees it (414, missing Host …).
  function refuse(res: CountingResponse, status: number, level: 'info', message: string): void {
    errorLog?.log(level, 'core', message, { ...requestContext(res.req), binary: true });
    const { body } = errorDocument(status);
    res.writeHead(status, { 'Content-Type': 'text/html; charset=iso-8859-1', Connection: 'close' });
    res.end(body);
  }

  server.on('connection', (socket: Socket) => void attachState(socket));

  server.on('request', (req: IncomingMessage, response: ServerResponse) => {
    const res = response as CountingResponse;
    const st = stateOf(req.socket);
    const now = performance.now();
    const startMs = st?.startMs ?? Date.now();
    const startHr = st?.startMs === undefined ? now : st.startHr;
    const method = req.method ?? '';
    const target = req.url ?? ''; // captured before the app may rewrite req.url
    const http09 = req.httpVersion === '0.9';
    const protocol = http09 ? 'HTTP/0.9' : 'HTTP/' + req.httpVersion;
    const lineLength = method.length + 1 + target.length + (http09 ? 0 : 9);
    const ls: RequestLogState = {
      startMs,
      startHr,
      requestLine: method + ' ' + target + (http09 ? '' : ' ' + protocol),
      method,
      target,
      protocol,
      statusOverride: undefined,
      headersRead: true,
    };
    res.logState = ls;
    res.once('close', logServed);
    if (st) {
      st.served++;
      const te = req.headers['transfer-encoding'];
      const cl = Number(req.headers['content-length'] ?? 0) || 0;
      st.consumeHead(cl, te !== undefined);
      if (te !== undefined || cl > 0) {
        st.reading = req;
        req.once('end', () => st.bodyEnded());
      }
    }
    if (lineLength > REQUEST_LINE_MAX) {
      ls.requestLine = ls.requestLine!.slice(0, REQUEST_LINE_MAX + 1);
      ls.method = undefined;
      ls.target = undefined;
      ls.protocol = 'HTTP/1.0';
      ls.headersRead = false; // httpd stops at the line: no user, Referer or User-Agent
      return refuse(
        res,
        414,
        'info',
        `AH00565: request failed: client's request-line exceeds LimitRequestLine (longer than 8190)`,
      );
    }
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length + raw[i + 1]!.length + 2 > limits.fieldSizeMax)
        return refuse(res, 400, 'info', `AH00561: Request header exceeds LimitRequestFieldSize: ${raw[i]}`);
    }
    if (req.httpVersion === '1.1' && req.headers.host === undefined)
      return refuse(
        res,
        400,
        'info',
        `AH00569: client sent HTTP/1.1 request without hostname (see RFC2616 section 14.23): ${target}`,
      );
    if (closing) res.setHeader('Connection', 'close');
    handler(req, res);
  });

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const st = stateOf(socket);
    if (!st || st.rejected) return void socket.destroy();
    // The connection failed while a dispatched request's body was read: that request's own
    // line reports it when its response closes.
    if (st.reading) {
      const res = (st.reading as IncomingMessage & { res?: CountingResponse }).res;
      if (res?.logState && !res.headersSent)
        res.logState.statusOverride = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      return void socket.destroy();
    }
    st.rejected = true;
    const peer = unmap(socket.remoteAddress);
    const peerPort = socket.remotePort ?? 0;
    const localPort = socket.localPort ?? 0;
    const bytes = st.bytes ? st.pending() : err.rawPacket;
    const head = parseRawHead(bytes);
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const reset = err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'HPE_INVALID_EOF_STATE';
    // Nothing to log: a reset before a complete line, or an idle kept-alive connection timing out.
    if ((reset && !head.lineComplete) || (timeout && !st.bytes && st.served > 0))
      return void socket.destroy();
    const rejection = decideRejection(err.code, head, `${err.code ?? ''} ${err.message}`);
    const status = reset ? 400 : rejection.status;
    const isHead = head.method === 'HEAD';
    let bodyBytes = 0;
    if (rejection.respond && !reset && socket.writable) {
      const response = rawErrorResponse(status, isHead);
      bodyBytes = isHead ? 0 : errorDocument(status).body.length;
      socket.end(response);
    } else socket.destroy();
    if (rejection.entry && errorLog?.enabled(rejection.entry.level))
      errorLog.log(rejection.entry.level, rejection.entry.module, rejection.entry.message, {
        client: `${peer}:${peerPort}`,
        referer: rawHeaderValue(head.headers, 'referer') || undefined,
        binary: true,
      });
    accessLog?.log({
      remoteAddr: peer,
      peerAddr: peer,
      localPort,
      startMs: st.startMs ?? Date.now(),
      durationUs: st.startMs === undefined ? 0 : (performance.now() - st.startHr) * 1000,
      requestLine: timeout && !head.lineComplete ? undefined : head.requestLine,
      method: head.method,
      target: head.target,
      protocol: head.protocol,
      status,
      bodyBytes,
      user: logUserOf({} as IncomingMessage, head.headers),
      requestHeader: (n) => rawHeaderValue(head.headers, n),
      responseHeader: () => undefined,
    });
  });

  server.stop = (graceMs = 10_000) =>
    new Promise<void>((resolve) => {
      if (closing) return resolve();
      closing = true;
      const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
      const idle = setInterval(() => server.closeIdleConnections(), 100).unref();
      server.close(() => {
        clearTimeout(force);
        clearInterval(idle);
        resolve();
      });
      server.closeIdleConnections();
    });

  return server;
}

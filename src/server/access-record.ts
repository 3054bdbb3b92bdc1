// The access-log record of a request: what is captured when its head arrives (before the
// application may rewrite req.url), and the AccessRecord written when it ends, for served
// requests and for heads Node's parser rejected alike.
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { logUserOf, rawHeaderValue, type AccessRecord } from '../logging/access/index.ts';
import { unmap, type ConnectionState } from './connection.ts';
import type { CountingResponse, RequestLogState } from './counting-response.ts';
import { REQUEST_LINE_MAX, type RawHead } from './raw-head.ts';
import type { Seen } from './rejection.ts';

const NO_BODY = (method: string | undefined, status: number) =>
  method === 'HEAD' || status === 204 || status === 304 || status < 200;

/** %h / %a: the peer, or behind a trusted proxy the forwarded client. */
export function clientAddressOf(trustProxy: readonly string[] | undefined): (req: IncomingMessage) => string {
  const trust = trustProxy?.length ? proxyaddr.compile([...trustProxy]) : undefined;
  return (req) => unmap(trust ? proxyaddr(req, trust) : req.socket.remoteAddress);
}

/**
 * The request as the client sent it, timed from its first byte on the connection, with the
 * client's address as it is now (the socket may be closed by the time the line is written).
 */
export function requestLogState(
  req: IncomingMessage,
  st: ConnectionState | undefined,
  clientAddr: (req: IncomingMessage) => string,
): RequestLogState {
  const startMs = st?.startMs ?? Date.now();
  const startHr = st?.startMs === undefined ? performance.now() : st.startHr;
  const method = req.method ?? '';
  const target = req.url ?? '';
  const http09 = req.httpVersion === '0.9';
  const protocol = http09 ? 'HTTP/0.9' : 'HTTP/' + req.httpVersion;
  return {
    remoteAddr: clientAddr(req),
    peerAddr: st?.peer ?? unmap(req.socket.remoteAddress),
    localPort: st?.localPort ?? req.socket.localPort ?? 0,
    startMs,
    startHr,
    requestLine: method + ' ' + target + (http09 ? '' : ' ' + protocol),
    method,
    target,
    protocol,
    statusOverride: undefined,
    bodyBytesOverride: undefined,
    headersRead: true,
  };
}

/** httpd stopped at an over-long line: %r is its first 8191 bytes; no method, target or header. */
export function cutToRequestLine(ls: RequestLogState): void {
  ls.requestLine = ls.requestLine?.slice(0, REQUEST_LINE_MAX + 1);
  ls.method = undefined;
  ls.target = undefined;
  ls.protocol = 'HTTP/1.0';
  ls.headersRead = false;
}

/** httpd refused the head part-way: log what it had read, not what Node parsed. */
export function applySeen(ls: RequestLogState, seen: Seen): void {
  ls.requestLine = seen.requestLine;
  ls.method = seen.method;
  ls.target = seen.target;
  ls.protocol = seen.protocol;
  ls.headerTable = seen.headers;
  ls.noUser = true;
}

/** %{Name}i of a served request: Node's headers, or the part of them httpd had read. */
function requestHeaderOf(ls: RequestLogState, req: IncomingMessage): (name: string) => string | undefined {
  const table = ls.headerTable;
  if (table) return (n) => rawHeaderValue(table, n);
  return ls.headersRead ? (n) => rawHeaderValue(req.rawHeaders, n) : () => undefined;
}

/**
 * The record of a request that reached the server's request handler: when its response ends
 * (`ending`: the headers go out with its last bytes), or when its connection closed before.
 */
export function servedRecord(
  res: CountingResponse,
  accessUser: ((req: IncomingMessage) => string | undefined) | undefined,
  ending = false,
  maskTarget?: (target: string) => string,
): AccessRecord | undefined {
  const req = res.req;
  const ls = res.logState;
  if (!ls) return undefined;
  const status = ls.statusOverride ?? res.statusCode;
  const record = unmaskedRecord(res, req, ls, status, accessUser, ending);
  return maskTarget ? masked(record, maskTarget) : record;
}

/** The record with `mask` applied to the request line, the target and the Referer. */
function masked(record: AccessRecord, mask: (target: string) => string): AccessRecord {
  const header = record.requestHeader;
  return {
    ...record,
    requestLine: record.requestLine === undefined ? undefined : mask(record.requestLine),
    target: record.target === undefined ? undefined : mask(record.target),
    requestHeader: (name) => {
      const value = header(name);
      return value !== undefined && name.toLowerCase() === 'referer' ? mask(value) : value;
    },
  };
}

function unmaskedRecord(
  res: CountingResponse,
  req: IncomingMessage,
  ls: RequestLogState,
  status: number,
  accessUser: ((req: IncomingMessage) => string | undefined) | undefined,
  ending: boolean,
): AccessRecord {
  return {
    remoteAddr: ls.remoteAddr,
    peerAddr: ls.peerAddr,
    localPort: ls.localPort,
    startMs: ls.startMs,
    durationUs: (performance.now() - ls.startHr) * 1000,
    requestLine: ls.requestLine,
    method: ls.method,
    target: ls.target,
    protocol: ls.protocol,
    status,
    bodyBytes:
      ls.bodyBytesOverride ??
      (NO_BODY(req.method, status) || !(ending || res.headersSent) ? 0 : res.bodyBytes),
    user: ls.headersRead && !ls.noUser ? logUserOf(accessUser?.(req), req.rawHeaders) : undefined,
    requestHeader: requestHeaderOf(ls, req),
    responseHeader: (n) => res.sentHeader(n),
  };
}

export interface RejectedRequest {
  readonly state: ConnectionState;
  readonly head: RawHead;
  readonly status: number;
  readonly bodyBytes: number;
  /** A read timeout before the request line was complete: %r is `-`. */
  readonly noLine: boolean;
  /** httpd's own reading of the head it refused (strict/), which wins over `head`. */
  readonly seen?: Seen | undefined;
  /** httpd refused before authentication: %u is `-`. */
  readonly noUser?: boolean | undefined;
}

/** The record of a head Node's parser rejected, rebuilt from the bytes the client sent. */
export function rejectedRecord(r: RejectedRequest): AccessRecord {
  const { head, state: st, seen } = r;
  if (seen) {
    const headers = seen.headers;
    return {
      ...rejectedRecord({ ...r, seen: undefined }),
      requestLine: seen.requestLine,
      method: seen.method,
      target: seen.target,
      protocol: seen.protocol,
      user: undefined,
      requestHeader: (n) => rawHeaderValue(headers, n),
    };
  }
  return {
    remoteAddr: st.peer,
    peerAddr: st.peer,
    localPort: st.localPort,
    startMs: st.startMs ?? Date.now(),
    durationUs: st.startMs === undefined ? 0 : (performance.now() - st.startHr) * 1000,
    requestLine: r.noLine ? undefined : head.requestLine,
    method: head.method,
    target: head.target,
    protocol: head.protocol,
    status: r.status,
    bodyBytes: r.bodyBytes,
    user: r.noUser ? undefined : logUserOf(undefined, head.headers),
    requestHeader: (n) => rawHeaderValue(head.headers, n),
    responseHeader: () => undefined,
  };
}

// httpd's limits on a request, and how they map onto Node's server options; the ones Node
// cannot enforce the way httpd does (per line and per field rather than per head) are checked
// on each parsed head. Why these values: docs/decisions/0012-http-server-limits.md.
import type { IncomingMessage, ServerOptions } from 'node:http';
import { rawHeaderValue } from '../logging/access/index.ts';
import { REQUEST_LINE_MAX } from './raw-head.ts';
import { REFUSALS, type Rejection } from './rejection.ts';

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
  /** Time allowed for a request body before its first byte (mod_reqtimeout body=20; 0: none). */
  readonly bodyTimeoutMs: number;
  /** Bytes a second that each buy one more second for the body (mod_reqtimeout MinRate=500). */
  readonly bodyMinRate: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxHeaderSize: 64 * 1024,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  fieldSizeMax: 8190,
  bodyTimeoutMs: 20_000,
  bodyMinRate: 500,
};

/** The options of http.createServer that carry `limits`. */
export function nodeServerOptions(limits: ServerLimits): ServerOptions {
  return {
    maxHeaderSize: limits.maxHeaderSize,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
    requireHostHeader: false, // checked in checkHead, so the rejection is logged like httpd's
  };
}

/** The request line's length as httpd counts it (`method SP target SP protocol`). */
export function requestLineLength(req: IncomingMessage): number {
  const http09 = req.httpVersion === '0.9';
  return (req.method ?? '').length + 1 + (req.url ?? '').length + (http09 ? 0 : 9);
}

/**
 * httpd's refusal of a head Node's parser accepted, or undefined when httpd would serve it: the
 * line and field limits, Host, Expect (417), and CONNECT (405: this server is no proxy).
 */
export function checkHead(req: IncomingMessage, limits: ServerLimits): Rejection | undefined {
  if (requestLineLength(req) > REQUEST_LINE_MAX) return REFUSALS.requestLineTooLong();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length + raw[i + 1]!.length + 2 > limits.fieldSizeMax) return REFUSALS.fieldTooLong(raw[i]);
  }
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return REFUSALS.missingHost(req.url ?? '');
  // httpd knows one expectation, for every protocol version (Node checks only HTTP/1.1's).
  const expect = req.headers.expect;
  if (expect !== undefined && expect !== '' && expect.toLowerCase() !== '100-continue')
    return REFUSALS.expectationFailed(rawHeaderValue(req.rawHeaders, 'expect') ?? expect);
  if (req.method === 'CONNECT') return REFUSALS.connectNotAllowed();
  return undefined;
}

// Where httpd's Strict parsing (strict/) meets the server: a head Node's parser accepted but
// httpd would refuse (two spaces in the line, HEAD without a protocol, a fragment …), a head
// Node rejected for which httpd has its own refusal, and httpd's check of the path itself
// (AH10244) before any handler runs. docs/decisions/0016-strict-request-parsing.md
import type { IncomingMessage } from 'node:http';
import { REFUSALS, type Rejection } from './rejection.ts';
import { normalizablePath, parseTarget, strictHead } from './strict/index.ts';

const ORDINARY_LINE = /^[A-Z]{1,20} \/[!-"$-~]* HTTP\/1\.[01]$/;

/**
 * httpd's refusal of a head Node dispatched, read from the raw bytes the connection kept.
 * The bytes must be this request's head: when the line in them is not the one Node parsed
 * (bytes not kept after a chunked body, say), httpd's verdict is unknown and nothing is refused.
 */
export function dispatchedRefusal(bytes: Buffer, req: IncomingMessage): Rejection | undefined {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('latin1');
  // Nearly every request: an origin-form target of visible ASCII without a fragment, HTTP/1.x.
  // httpd accepts such a line, and Node's parser has already refused every header field httpd
  // would refuse (bare LF, NUL, control bytes, names that are not tokens, folding: each case in
  // test/logs/strict-cases.json reaches the clientError path), so the full reading, ~15 µs a
  // head, is kept for the other lines.
  const lineEnd = text.indexOf('\r\n');
  if (lineEnd > 0 && ORDINARY_LINE.test(text.slice(0, lineEnd))) return undefined;
  const head = strictHead(text);
  if (head.kind !== 'refused' || head.method !== req.method || head.target !== req.url) return undefined;
  return REFUSALS.strictHead(head);
}

/**
 * httpd's refusal of a head Node's parser rejected, when httpd would refuse it too: while
 * reading it, or (a head httpd reads whole, such as one with raw UTF-8 in the path) its path.
 */
export function rejectedRefusal(bytes: Buffer | undefined, closed: boolean): Rejection | undefined {
  if (!bytes?.length) return undefined;
  const head = strictHead(bytes.toString('latin1'), closed);
  if (head.kind === 'refused') return REFUSALS.strictHead(head);
  return head.kind === 'accepted' ? refusePath(head.method, head.target) : undefined;
}

/** ap_process_request_internal's first step: a path ap_normalize_path refuses is a 400. */
export function pathRefusal(req: IncomingMessage): Rejection | undefined {
  return refusePath(req.method ?? '', req.url ?? '');
}

function refusePath(method: string, target: string): Rejection | undefined {
  if (method === 'CONNECT') return undefined;
  // Without a dot segment or an escape anywhere there is nothing to refuse (most targets).
  if (target[0] === '/' && !target.includes('/.') && !target.includes('%')) return undefined;
  const { path } = parseTarget(target, false);
  if (path === undefined || normalizablePath(path)) return undefined;
  return REFUSALS.invalidPath(target);
}

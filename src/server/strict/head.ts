// The whole head as httpd reads it under Strict (read_request_line, ap_parse_request_line,
// ap_get_mime_headers_core): either it is one httpd would go on with, or the 400 it answers
// with what it had read by then — %r, the header table (%{Name}i) and its debug entries.
import { readHeaderFields } from './header-fields.ts';
import { readLine } from './line.ts';
import { parseRequestLine } from './request-line.ts';
import { hidePassword } from './target.ts';

export const REQUEST_LINE_LIMIT = 8190;

export interface StrictEntry {
  readonly message: string;
  readonly osError?: string;
}

export type StrictHead =
  /** httpd would read this head without refusing it (other checks may still apply). */
  | { readonly kind: 'accepted'; readonly method: string; readonly target: string }
  /** httpd answers 400 before any handler runs. */
  | {
      readonly kind: 'refused';
      /** r->the_request as mod_log_config writes it (a password hidden). */
      readonly requestLine: string;
      /** undefined when httpd failed reading the line itself (no method, no target). */
      readonly method: string | undefined;
      readonly target: string | undefined;
      readonly protocol: string | undefined;
      /** The header table when httpd stopped (empty when it stopped at the request line). */
      readonly headers: string[];
      /** Debug entries, in httpd's order. */
      readonly entries: readonly StrictEntry[];
    }
  /** Not enough bytes to decide, or a line over the limits (left to their own refusals). */
  | { readonly kind: 'undecided' };

/**
 * httpd's verdict on the raw bytes of one request head (a binary string starting at the
 * request line, or at blank lines before it). `closed`: the connection ended after these bytes.
 */
export function strictHead(text: string, closed = false): StrictHead {
  let pos = 0;
  // read_request_line skips empty lines (CRLF; a bare LF fails like any line).
  while (text.startsWith('\r\n', pos)) pos += 2;
  const line = readLine(text, pos, REQUEST_LINE_LIMIT);
  if (line.kind === 'too-long' || line.kind === 'incomplete') return { kind: 'undecided' };
  if (line.kind === 'invalid') {
    // read_request_line failed: r->method stays NULL, the_request is the raw text (LF included).
    return {
      kind: 'refused',
      requestLine: line.text,
      method: undefined,
      target: undefined,
      protocol: undefined,
      headers: [],
      entries: [{ message: 'AH00566: request failed: malformed request line' }],
    };
  }
  const parsed = parseRequestLine(line.text);
  const refused = (headers: string[], entries: readonly StrictEntry[]): StrictHead => ({
    kind: 'refused',
    requestLine: hidePassword(parsed.method, parsed.target, parsed.protocol) ?? parsed.theRequest,
    method: parsed.method,
    target: parsed.target,
    protocol: parsed.protocol,
    headers,
    entries,
  });
  if (parsed.error) return refused([], [{ message: parsed.error }]);
  // An HTTP/0.9 request has no header lines.
  if (parsed.protocol === '') return { kind: 'accepted', method: parsed.method, target: parsed.target };
  const fields = readHeaderFields(text, line.next, closed);
  if (fields.kind === 'invalid') return refused(fields.headers, fields.entries);
  if (fields.kind !== 'ok') return { kind: 'undecided' };
  return { kind: 'accepted', method: parsed.method, target: parsed.target };
}

// What one access-log line is made of. The HTTP server fills it (for served and for rejected
// requests alike); the format compiler only reads it. Strings marked "binary" hold raw bytes,
// one char per byte, and are escaped when the line is written.

export interface AccessRecord {
  /** Client address for %h / %a: IPv4-mapped IPv6 already unwrapped; behind a trusted proxy the forwarded client. */
  readonly remoteAddr: string;
  /** The TCP peer (%{c}a). */
  readonly peerAddr: string;
  readonly localPort: number;
  /** Epoch milliseconds when the request line arrived (%t). */
  readonly startMs: number;
  /** Microseconds from arrival to the end of the response (%D). */
  readonly durationUs: number;
  /** Rebuilt request line (binary), undefined → `-` (e.g. a timeout before any line). */
  readonly requestLine: string | undefined;
  readonly method: string | undefined;
  /** Request target as sent (binary), undefined when the line could not be parsed. */
  readonly target: string | undefined;
  /** `HTTP/1.1`; `HTTP/1.0` when unknown (what Apache logs for rejected lines). */
  readonly protocol: string;
  readonly status: number;
  /** Response body bytes actually handed to the connection (0 for HEAD, 204, 304). */
  readonly bodyBytes: number;
  /** Authenticated user (binary), undefined → `-`, empty → `""`. */
  readonly user: string | undefined;
  /** A request header by lower-case name (binary; repeated headers joined by `, `). */
  requestHeader(lowerName: string): string | undefined;
  /** A response header by lower-case name. */
  responseHeader(lowerName: string): string | undefined;
}

/** Looks a header up in Node's `rawHeaders` (name, value, name, value …), joining repeats like Apache. */
export function rawHeaderValue(raw: readonly string[], lowerName: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      const v = raw[i + 1]!;
      found = found === undefined ? v : found + ', ' + v;
    }
  }
  return found;
}

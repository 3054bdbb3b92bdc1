// What Apache answers (status, body, error-log entry) for a request it refuses before any
// handler runs, whether Node's parser rejected the bytes (client-error.ts), the head parsed but
// breaks one of httpd's rules (limits.ts), or the body failed while it was read
// (body-failure.ts). Each Apache text is written here once.
import type { RawHead } from './raw-head.ts';
import type { StrictHead } from './strict/index.ts';

export interface LogEntry {
  readonly level: 'error' | 'info' | 'debug';
  readonly module: string;
  readonly message: string;
  /** APR's status before the client, as httpd writes it: `(22)Invalid argument`. */
  readonly osError?: string;
}

export interface Rejection {
  readonly status: number;
  /** Send this response (false: close without answering, like httpd on a read timeout). */
  readonly respond: boolean;
  /** httpd stopped at the request line: no header (Referer, User-Agent, %u) was read. */
  readonly lineOnly?: boolean;
  /** httpd's error document for this refusal. */
  readonly document: string;
  /** Headers besides the ones every error document has (Allow on a 405). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Error-log entry at `info` (Apache's own texts), or at `debug` for Node-only reasons. */
  readonly entry?: LogEntry;
  /** Entries httpd writes after `entry` for the same refusal. */
  readonly more?: readonly LogEntry[];
  /**
   * What httpd had read when it refused, when that is less than Node parsed: its %r and the
   * header table %{Name}i reads (no user: httpd refused before any authentication).
   */
  readonly seen?: Seen;
  /** httpd refused before authentication ran: %u is `-` whatever the request carried. */
  readonly beforeAuth?: boolean;
}

export interface Seen {
  readonly requestLine: string;
  readonly method: string | undefined;
  readonly target: string | undefined;
  /** %H: the protocol httpd settled on (HTTP/1.0 when the line failed). */
  readonly protocol: string;
  /** name, value, … (binary), like rawHeaders. */
  readonly headers: readonly string[];
}

/** Every error-log entry of a refusal, in httpd's order. */
export const entriesOf = (r: Rejection): readonly LogEntry[] => (r.entry ? [r.entry, ...(r.more ?? [])] : []);

const core = (message: string): LogEntry => ({ level: 'info', module: 'core', message });

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  414: 'Request-URI Too Long',
  417: 'Expectation Failed',
  501: 'Not Implemented',
};

// httpd's canned texts (modules/http/http_protocol.c, get_canned_error_string).
const BAD_REQUEST = '<p>Your browser sent a request that this server could not understand.<br />\n</p>\n';
const CANNED: Record<number, string> = {
  400: BAD_REQUEST,
  408: '<p>Server timeout waiting for the HTTP request from the client.</p>\n',
  414: "<p>The requested URL's length exceeds the capacity\nlimit for this server.<br />\n</p>\n",
  501: '<p>The requested method is not supported by this server.<br />\n</p>\n',
};

/** ap_escape_html on a binary string. */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Apache's error document for `status` (ISO-8859-1 HTML, as httpd sends it). */
export function errorDocument(
  status: number,
  canned = CANNED[status] ?? BAD_REQUEST,
): { reason: string; body: string } {
  const reason = REASONS[status] ?? 'Bad Request';
  const body =
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n' +
    `<title>${status} ${reason}</title>\n</head><body>\n<h1>${reason}</h1>\n${canned}</body></html>\n`;
  return { reason, body };
}

function refusal(
  status: number,
  entry?: LogEntry,
  canned?: string,
  extra: Partial<Rejection> = {},
): Rejection {
  return {
    status,
    respond: true,
    document: errorDocument(status, canned).body,
    ...(entry && { entry }),
    ...extra,
  };
}

/** httpd's refusals, with the texts (and AH numbers) it writes to the error log. */
export const REFUSALS = {
  requestLineTooLong: (): Rejection =>
    refusal(
      414,
      core(`AH00565: request failed: client's request-line exceeds LimitRequestLine (longer than 8190)`),
      undefined,
      { lineOnly: true },
    ),
  /** `name` is absent when Node's parser reports the overflow without saying which field. */
  fieldTooLong: (name?: string): Rejection =>
    refusal(
      400,
      core(`AH00561: Request header exceeds LimitRequestFieldSize${name === undefined ? '' : `: ${name}`}`),
    ),
  missingHost: (target: string): Rejection =>
    refusal(
      400,
      core(`AH00569: client sent HTTP/1.1 request without hostname (see RFC2616 section 14.23): ${target}`),
    ),
  invalidUri: (requestLine: string): Rejection =>
    refusal(400, core(`AH00126: Invalid URI in request ${requestLine}`)),
  invalidMethod: (requestLine: string): Rejection =>
    refusal(501, core(`AH00135: Invalid method in request ${requestLine}`)),
  headerReadTimeout: (): Rejection => ({
    ...refusal(408, { level: 'info', module: 'reqtimeout', message: 'AH01382: Request header read timeout' }),
    respond: false,
  }),
  /** mod_reqtimeout's body stage ran out: httpd's handler answers 408. */
  bodyReadTimeout: (): Rejection =>
    refusal(408, { level: 'info', module: 'reqtimeout', message: 'AH01382: Request body read timeout' }),
  /** A Transfer-Encoding whose last coding is not chunked (httpd logs r->uri: the path). */
  unknownTransferEncoding: (te: string, target: string): Rejection =>
    refusal(400, {
      level: 'debug',
      module: 'core',
      message: `AH02539: client sent unknown Transfer-Encoding (${te}): ${target.split('?')[0]}`,
    }),
  /** A chunk-size line that does not parse (http_filters.c, APR_EINVAL). */
  badChunk: (): Rejection =>
    refusal(400, {
      level: 'info',
      module: 'http',
      message: 'AH01590: Error reading/parsing chunk  ',
      osError: '(22)Invalid argument',
    }),
  /** The connection ended before the whole body: httpd's handler sees the read fail, 400. */
  bodyIncomplete: (canAnswer: boolean): Rejection => ({
    ...refusal(400, {
      level: 'debug',
      module: 'core',
      message: 'request failed: the connection ended before the whole request body arrived',
    }),
    respond: canAnswer,
  }),
  /** An Expect other than 100-continue (HTTP/1.0 too). */
  expectationFailed: (expect: string): Rejection =>
    refusal(
      417,
      core(`AH00570: client sent an unrecognized expectation value of Expect: ${expect}`),
      '<p>The expectation given in the Expect request-header\nfield could not be met by this server.\n' +
        `The client sent<pre>\n    Expect: ${escapeHtml(expect)}\n</pre>\n</p>` +
        '<p>Only the 100-continue expectation is supported.</p>\n',
    ),
  /** CONNECT to a server that is no proxy: httpd without mod_proxy answers 405 (no entry). */
  connectNotAllowed: (): Rejection =>
    refusal(405, undefined, '<p>The requested method CONNECT is not allowed for this URL.</p>\n', {
      // The target (a tunnel to another host) allows no method here (RFC 9110 §10.2.1).
      headers: { Allow: '' },
    }),
  /** httpd's parser (Strict) refused the head: 400, its debug entries, what it had read. */
  strictHead: (head: Extract<StrictHead, { kind: 'refused' }>): Rejection => {
    const [first, ...rest] = head.entries.map((e): LogEntry => ({
      level: 'debug',
      module: 'core',
      message: e.message,
      osError: e.osError,
    }));
    const protocol = head.protocol && /^HTTP\/[1-9]\.[0-9]$/.test(head.protocol) ? head.protocol : 'HTTP/1.0';
    return refusal(400, first, undefined, {
      more: rest,
      beforeAuth: true,
      // ap_parse_uri makes r->uri `/` of an empty target (%U).
      seen: { ...head, protocol, target: head.target || (head.method === undefined ? undefined : '/') },
    });
  },
  /** ap_normalize_path refused the path (`..` above the root, a bad %-escape): AH10244. */
  invalidPath: (target: string): Rejection =>
    refusal(
      400,
      { level: 'error', module: 'core', message: `AH10244: invalid URI path (${target})` },
      undefined,
      { beforeAuth: true },
    ),
  /** Node refused for a reason httpd has no text for: logged at debug only. */
  other: (reason: string): Rejection =>
    refusal(400, { level: 'debug', module: 'core', message: `request failed: ${reason}` }),
};

/** The raw HTTP response for a rejected request (connection closed afterwards). */
export function rawErrorResponse(rejection: Rejection, head: boolean): Buffer {
  const { status, document } = rejection;
  let headers = `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nDate: ${new Date().toUTCString()}\r\n`;
  for (const [name, value] of Object.entries(rejection.headers ?? {})) headers += `${name}: ${value}\r\n`;
  headers += `Content-Length: ${document.length}\r\nConnection: close\r\nContent-Type: text/html; charset=iso-8859-1\r\n\r\n`;
  return Buffer.from(head ? headers : headers + document, 'latin1');
}

/** httpd's refusal for bytes Node's parser rejected with `code`. */
export function decideRejection(code: string | undefined, head: RawHead, reason: string): Rejection {
  if (head.tooLong) return REFUSALS.requestLineTooLong();
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return REFUSALS.headerReadTimeout();
  if (code === 'HPE_HEADER_OVERFLOW') return REFUSALS.fieldTooLong();
  if (code === 'HPE_INVALID_URL') return REFUSALS.invalidUri(head.requestLine ?? '');
  // A well-formed line whose method Node does not know (e.g. `get`): httpd answers 501.
  if (
    code === 'HPE_INVALID_METHOD' &&
    head.wellFormed &&
    /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(head.method ?? '')
  )
    return REFUSALS.invalidMethod(head.requestLine ?? '');
  const te = head.headers.findIndex((v, i) => i % 2 === 0 && v.toLowerCase() === 'transfer-encoding');
  if (code === 'HPE_INVALID_TRANSFER_ENCODING' && te >= 0 && head.wellFormed)
    return REFUSALS.unknownTransferEncoding(head.headers[te + 1]!, head.target ?? '');
  return REFUSALS.other(reason);
}

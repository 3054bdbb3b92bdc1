// httpd's ap_parse_request_line (server/protocol.c) under HttpProtocolOptions Strict (with
// its defaults LenientMethods and Allow0.9), ported step by step on a NUL-terminated byte
// array: the method must be a token, exactly one SP between method, target and protocol, no
// control byte, SP or DEL in the target, the protocol `HTTP/` digit `.` digit in upper case
// (not HTTP/0.x), and only GET without a protocol (HTTP/0.9). Then ap_parse_uri's checks:
// the target is a path starting with `/` (or `*` for OPTIONS), with no fragment and no
// user:password. Every refusal is a 400 whose %r is httpd's rebuilt `the_request`.
import {
  cBytes,
  cString,
  fieldNameForLog,
  isSpace,
  nextSpace,
  scanToken,
  scanVcharObstext,
} from './chars.ts';
import { parseTarget } from './target.ts';

export interface RequestLine {
  /** httpd's r->the_request: the parts it recognised, joined by single spaces. */
  readonly theRequest: string;
  readonly method: string;
  readonly target: string;
  /** The protocol as sent ('' for an HTTP/0.9 line). */
  readonly protocol: string;
  /** httpd's debug entry (with its AH number) when it refuses the line with 400. */
  readonly error: string | undefined;
}

type Deferred =
  | 'none'
  | 'badmethod'
  | 'badwhitespace'
  | 'excesswhitespace'
  | 'missinguri'
  | 'baduri'
  | 'badprotocol'
  | 'badmethod09';

const isHttpVersion = (p: string, anyCase: boolean): boolean =>
  p.length === 8 &&
  (anyCase ? p.slice(0, 5).toUpperCase() : p.slice(0, 5)) === 'HTTP/' &&
  /^[0-9]\.[0-9]$/.test(p.slice(5)) &&
  p[5] !== '0';

export function parseRequestLine(line: string): RequestLine {
  const b = cBytes(line);
  const EMPTY = b.length - 1; // the terminating NUL: an empty C string
  let err: Deferred = 'none';
  let method = 0;
  let uri: number;
  let protocol: number;
  if (isSpace(b[method])) {
    err = 'badwhitespace';
    while (isSpace(b[method])) method++;
  }
  let ll = scanToken(b, method);
  if ((ll === method || (b[ll] !== 0 && !isSpace(b[ll]))) && err === 'none') {
    err = 'badmethod';
    ll = nextSpace(b, ll);
  }
  parse: {
    if (ll < 0) {
      if (err === 'none') err = 'missinguri';
      uri = protocol = EMPTY;
      break parse;
    } else if (b[ll] !== 0 && isSpace(b[ll + 1]) && err === 'none') err = 'excesswhitespace';
    for (uri = ll; isSpace(b[uri]); uri++) if (b[uri] !== 32 && err === 'none') err = 'badwhitespace';
    b[ll] = 0;
    if (b[uri] === 0 && err === 'none') err = 'missinguri';
    ll = scanVcharObstext(b, uri);
    if (ll === uri || (b[ll] !== 0 && !isSpace(b[ll]))) {
      err = 'baduri';
      ll = nextSpace(b, ll);
    }
    if (ll < 0) {
      protocol = EMPTY;
      break parse;
    } else if (b[ll] !== 0 && isSpace(b[ll + 1]) && err === 'none') err = 'excesswhitespace';
    for (protocol = ll; isSpace(b[protocol]); protocol++)
      if (b[protocol] !== 32 && err === 'none') err = 'badwhitespace';
    b[ll] = 0;
    ll = scanVcharObstext(b, protocol);
    // Strict: anything after the protocol, even whitespace, is an error.
    if (b[ll] !== 0 && !isSpace(b[ll])) err = 'badprotocol';
    else if (b[ll] !== 0) err = 'excesswhitespace';
    b[ll] = 0;
  }
  const m = cString(b, method);
  const u = cString(b, uri);
  const p = cString(b, protocol);
  const theRequest = m + (u ? ' ' + u : '') + (p ? ' ' + p : '');
  let http09 = false;
  if (isHttpVersion(p, false)) {
    // HTTP/1.x and up
  } else if (isHttpVersion(p, true)) {
    if (err === 'none') err = 'badprotocol';
  } else {
    http09 = true;
    if (p !== '' && err === 'none') err = 'badprotocol';
  }
  // ap_parse_uri: a bad URI, or a path that does not start with '/', is a 400 reported later.
  const parsed = parseTarget(u, m === 'CONNECT');
  const badUri =
    !parsed.ok ||
    (parsed.path !== undefined && parsed.path[0] !== '/' && !(m === 'OPTIONS' && parsed.path === '*'));
  // Allow0.9 is the default; Strict lets only GET use it (HEAD is M_GET with header_only).
  if (http09 && err === 'none' && m !== 'GET') err = 'badmethod09';
  const error =
    deferredMessage(err, m, u, p) ??
    (badUri
      ? `AH03450: HTTP Request Line; Unable to parse URI: '${fieldNameForLog(parsed.uri)}'`
      : undefined) ??
    (parsed.fragment ? 'AH02421: HTTP Request Line; URI must not contain a fragment' : undefined) ??
    (parsed.userinfo ? 'AH02422: HTTP Request Line; URI must not contain a username/password' : undefined);
  return { theRequest, method: m, target: u, protocol: p, error };
}

function deferredMessage(err: Deferred, method: string, uri: string, protocol: string): string | undefined {
  switch (err) {
    case 'none':
      return undefined;
    case 'badmethod':
      return `AH03445: HTTP Request Line; Invalid method token: '${fieldNameForLog(method)}'`;
    case 'badmethod09':
      return (
        `AH03444: HTTP Request Line; Invalid method token: '${fieldNameForLog(method)}'` +
        ' (only GET is allowed for HTTP/0.9 requests)'
      );
    case 'missinguri':
      return 'AH03446: HTTP Request Line; Missing URI';
    case 'baduri':
      return `AH03454: HTTP Request Line; URI incorrectly encoded: '${fieldNameForLog(uri)}'`;
    case 'badwhitespace':
      return 'AH03447: HTTP Request Line; Invalid whitespace';
    case 'excesswhitespace':
      return 'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)';
    case 'badprotocol':
      return (
        `AH02418: HTTP Request Line; Unrecognized protocol '${fieldNameForLog(protocol)}' ` +
        '(perhaps whitespace was injected?)'
      );
  }
}

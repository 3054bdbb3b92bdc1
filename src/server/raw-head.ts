// Apache's reading of a request head from raw bytes, for requests Node's parser rejects: the
// request line is rebuilt as `method target protocol` with single spaces (httpd's
// ap_parse_request_line), a NUL byte ends it, a line longer than LimitRequestLine keeps its first
// 8191 bytes, and headers are read leniently so Referer / User-Agent / %u can still be logged.

export const REQUEST_LINE_MAX = 8190;

export interface RawHead {
  /** A whole request line was received (ended by LF), or it was cut for being too long. */
  readonly lineComplete: boolean;
  /** %r as a binary string; undefined when there is none. */
  readonly requestLine: string | undefined;
  readonly method: string | undefined;
  readonly target: string | undefined;
  readonly protocol: string;
  readonly tooLong: boolean;
  /** method, target and an `HTTP/x.y` protocol were all present. */
  readonly wellFormed: boolean;
  /** name, value, name, value … (binary), like Node's rawHeaders. */
  readonly headers: string[];
}

// apr_isspace: SP, HT, LF, VT, FF, CR.
const SPACE = /[ \t\n\v\f\r]+/;

/** Splits a request line the way httpd does: method, target, protocol, anything else dropped. */
export function splitRequestLine(line: string): { method: string; target: string; protocol: string } {
  const [method = '', target = '', protocol = ''] = line.replace(/^[ \t\n\v\f\r]+/, '').split(SPACE);
  return { method, target, protocol };
}

export function rebuildRequestLine(method: string, target: string, protocol: string): string {
  return method + (target ? ' ' + target : '') + (protocol ? ' ' + protocol : '');
}

export function parseRawHead(bytes: Buffer | undefined): RawHead {
  const none: RawHead = {
    lineComplete: false,
    requestLine: undefined,
    method: undefined,
    target: undefined,
    protocol: 'HTTP/1.0',
    tooLong: false,
    wellFormed: false,
    headers: [],
  };
  if (!bytes || bytes.length === 0) return none;
  let text = bytes.toString('latin1');
  text = text.replace(/^(?:\r?\n)+/, ''); // httpd skips empty lines before the request line
  const lf = text.indexOf('\n');
  const lineEnd = lf < 0 ? text.length : lf;
  if (lineEnd > REQUEST_LINE_MAX) {
    const first = text.slice(0, REQUEST_LINE_MAX + 1);
    const nul = first.indexOf('\0');
    return { ...none, lineComplete: true, tooLong: true, requestLine: nul < 0 ? first : first.slice(0, nul) };
  }
  // httpd reads a whole line before judging it: bytes without a LF are no line yet, NUL or not
  // (strict-cases.json: tls_hello_without_line_end_*).
  if (lf < 0) return none;
  const nul = text.slice(0, lineEnd).indexOf('\0');
  let line = text.slice(0, lineEnd);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (nul >= 0) {
    // httpd fails reading such a line: %r holds what precedes the NUL, %m and %U stay empty.
    const cut = line.slice(0, nul);
    return { ...none, lineComplete: true, requestLine: cut === '' ? undefined : cut };
  }
  const { method, target, protocol } = splitRequestLine(line);
  return {
    lineComplete: true,
    requestLine: rebuildRequestLine(method, target, protocol),
    method: method || undefined,
    target: target || (method ? '/' : undefined),
    protocol: /^HTTP\/\d\.\d$/.test(protocol) ? protocol : 'HTTP/1.0',
    tooLong: false,
    wellFormed: method !== '' && target !== '' && /^HTTP\/\d\.\d$/.test(protocol),
    headers: parseHeaderLines(text.slice(lf + 1)),
  };
}

function parseHeaderLines(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  lines.pop(); // the last piece has no LF: incomplete, ignored
  for (let raw of lines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw === '') break;
    if ((raw[0] === ' ' || raw[0] === '\t') && out.length) {
      // obs-fold: continuation joined with one space
      out[out.length - 1] = trimOws(out[out.length - 1] + ' ' + trimOws(raw));
      continue;
    }
    const colon = raw.indexOf(':');
    if (colon <= 0) continue;
    out.push(trimOws(raw.slice(0, colon)), trimOws(raw.slice(colon + 1)));
  }
  return out;
}

// Only SP and HTAB: String#trim() would also strip 0xA0 and other bytes that are not whitespace.
function trimOws(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}

// httpd's character classes (server/gen_test_char.c) and the C string helpers its parsers use,
// on byte arrays that end in a NUL, so the ports in this folder can follow httpd's pointer
// arithmetic (including writing NULs into the line) step by step.

/** apr_isspace: SP, HT, LF, VT, FF, CR. */
export const isSpace = (c: number | undefined): boolean => c === 32 || (c !== undefined && c >= 9 && c <= 13);

// RFC 7230 tchar (the complement of T_HTTP_TOKEN_STOP), as a table: it runs on every byte of
// every field name.
const TOKEN = new Uint8Array(256);
for (const c of `!#$%&'*+-.^_\`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz`)
  TOKEN[c.charCodeAt(0)] = 1;

export const isTokenChar = (c: number | undefined): boolean => c !== undefined && TOKEN[c] === 1;

/** T_VCHAR_OBSTEXT: visible ASCII and every byte ≥ 0x80. */
export const isVcharObstext = (c: number | undefined): boolean => c !== undefined && c >= 0x21 && c !== 0x7f;

/** T_HTTP_CTRLS: control bytes other than HT, DEL and NUL included. */
export const isHttpCtrl = (c: number | undefined): boolean =>
  c === undefined || ((c < 0x20 || c === 0x7f) && c !== 9);

/** A binary (latin1) string as a NUL-terminated byte array. */
export const cBytes = (s: string): Buffer => Buffer.from(s + '\0', 'latin1');

/** The C string starting at `at` (up to the next NUL), as a binary string. */
export function cString(b: Buffer, at: number): string {
  const end = b.indexOf(0, at);
  return b.toString('latin1', at, end < 0 ? b.length : end);
}

/** ap_scan_http_token: index of the first byte that is not a tchar. */
export function scanToken(b: Buffer, i: number): number {
  while (isTokenChar(b[i])) i++;
  return i;
}

/** ap_scan_vchar_obstext: index of the first byte that is not VCHAR / obs-text. */
export function scanVcharObstext(b: Buffer, i: number): number {
  while (isVcharObstext(b[i])) i++;
  return i;
}

/** strpbrk(s, "\t\n\v\f\r "): index of the first whitespace byte, or -1 at the NUL. */
export function nextSpace(b: Buffer, i: number): number {
  while (b[i] !== 0 && b[i] !== undefined && !isSpace(b[i])) i++;
  return b[i] === 0 || b[i] === undefined ? -1 : i;
}

/** `%.*s` with protocol.c's field_name_len: up to the first colon, at most 80 bytes. */
export function fieldNameForLog(s: string): string {
  const colon = s.indexOf(':');
  return s.slice(0, colon < 0 || colon > 80 ? 80 : colon);
}

/** `%.*s` with LOG_NAME_MAX_LEN (80). */
export const first80 = (s: string): string => s.slice(0, 80);

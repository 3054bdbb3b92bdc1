// httpd's ap_get_mime_headers_core (server/protocol.c) under Strict, on the lines after the
// request line. A field is checked, and added to the header table, only when the line after
// it has been read (that line may continue it by obs-fold), so when httpd refuses the head its
// table holds exactly the fields before the one that failed: those are what %{Name}i logs.
import { first80, isHttpCtrl, isTokenChar } from './chars.ts';
import { readLine } from './line.ts';

export const FIELD_SIZE_MAX = 8190;

export type FieldsRead =
  /** The empty line ended the head. `headers` is name, value, … (binary), like rawHeaders. */
  | { readonly kind: 'ok'; readonly headers: string[] }
  /** httpd answers 400: its debug entries, and the table as it was. */
  | {
      readonly kind: 'invalid';
      readonly headers: string[];
      readonly entries: readonly { readonly message: string; readonly osError?: string }[];
    }
  /** A field over LimitRequestFieldSize (left to limits.ts), or the head is not complete yet. */
  | { readonly kind: 'too-long' | 'incomplete'; readonly headers: string[] };

const READ_FAILED = 'AH00567: request failed: error reading the headers';

/**
 * Reads the header lines of `text` from `pos`. `closed`: the client closed the connection, so a
 * missing line is a read failure (httpd answers 400) rather than a line still to come.
 */
export function readHeaderFields(text: string, pos: number, closed: boolean): FieldsRead {
  const headers: string[] = [];
  let last: string | undefined;
  const invalid = (message: string, osError?: string): FieldsRead => ({
    kind: 'invalid',
    headers,
    entries: [osError ? { message, osError } : { message }, { message: READ_FAILED }],
  });
  for (;;) {
    const read = readLine(text, pos, FIELD_SIZE_MAX);
    if (read.kind === 'too-long') return { kind: 'too-long', headers };
    if (read.kind === 'incomplete') {
      // The client may still be sending, but Node's parser can stop at the bad field itself.
      const bad = last === undefined ? undefined : checkField(last, []);
      if (bad) return invalid(bad);
      if (!closed) return { kind: 'incomplete', headers };
      // APR_EGENERAL: the brigade came back empty at the end of the connection.
      return invalid(
        'Failed to read request header line (null)',
        '(20014)Internal error (specific information not available)',
      );
    }
    if (read.kind === 'invalid')
      return invalid(`Failed to read request header line ${read.text}`, '(22)Invalid argument');
    pos = read.next;
    // Trailing SP/HT is dropped, but never the line's only byte.
    let field = read.text;
    let end = field.length;
    while (end > 1 && isBlank(field.charCodeAt(end - 1))) end--;
    if (end < field.length) field = field.slice(0, end);
    if (isBlank(field.charCodeAt(0))) {
      if (last === undefined) return invalid('AH03442: Line folding encountered before first header line');
      if (field.length === 1) return invalid('AH03443: Empty folded line encountered');
      field = field.slice(skipBlanks(field, 0));
      last += ' ' + field; // obs-fold becomes one SP (RFC 7230 3.2.4)
      continue;
    }
    const bad = last === undefined ? undefined : checkField(last, headers);
    if (bad) return invalid(bad);
    if (field === '') return { kind: 'ok', headers };
    last = field;
  }
}

/** The strict checks of one (unfolded) field: its error entry, or it is added to `headers`. */
function checkField(field: string, headers: string[]): string | undefined {
  let colon = 0;
  while (isTokenChar(field.charCodeAt(colon))) colon++;
  if (colon === 0 || field[colon] !== ':')
    return `AH02426: Request header field name is malformed: ${first80(field)}`;
  const value = field.slice(skipBlanks(field, colon + 1));
  for (let i = 0; i < value.length; i++)
    if (isHttpCtrl(value.charCodeAt(i)))
      return `AH02427: Request header value is malformed: ${first80(value)}`;
  headers.push(field.slice(0, colon), value);
  return undefined;
}

const isBlank = (c: number): boolean => c === 32 || c === 9;

function skipBlanks(s: string, i: number): number {
  while (isBlank(s.charCodeAt(i))) i++;
  return i;
}

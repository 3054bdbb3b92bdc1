// Node refuses to write a header value with a character outside Latin-1 or a control character
// (ERR_INVALID_CHAR), and it does so in writeHead, after every hook has run, where Fastify can
// only answer with its own JSON error body (and a status line left half-written, `500 See
// Other`). So the layer checks the headers itself, in its last onSend hook: a bad value is a
// bug of ours, answered like any other unexpected error (a 500 problem in the negotiated
// format, reported once), and the problem answer drops whatever headers Node would refuse.
import type { HeaderTarget } from './header-target.ts';

export class InvalidHeaderError extends Error {
  readonly headerName: string;
  constructor(headerName: string) {
    super(`Invalid character in the value of response header ${JSON.stringify(headerName)}`);
    this.name = 'InvalidHeaderError';
    this.headerName = headerName;
  }
}

// The two tests node:http's validateHeaderName and validateHeaderValue apply (checkIsHttpToken
// and checkInvalidHeaderChar of node:_http_common), as plain expressions: calling the validators
// in a try/catch for every header of every response cost more than all the rest of the onSend
// hook (ADR 0066). header-check.test.ts holds them to Node's own answers.
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether Node would write this header (name and every value) without throwing. */
export function headerWritable(name: string, value: unknown): boolean {
  if (!TOKEN.test(name)) return false;
  if (!Array.isArray(value)) return !INVALID_VALUE_CHAR.test(String(value));
  for (const one of value as unknown[]) if (INVALID_VALUE_CHAR.test(String(one))) return false;
  return true;
}

/** The names of the reply's headers that Node would refuse to write. */
export function unwritableHeaders(reply: HeaderTarget): string[] {
  const headers = reply.getHeaders();
  const bad: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !headerWritable(name, value)) bad.push(name);
  }
  return bad;
}

/** onSend: refuse to send what writeHead would throw on. */
export function checkHeaders(reply: HeaderTarget): void {
  const [bad] = unwritableHeaders(reply);
  if (bad !== undefined) throw new InvalidHeaderError(bad);
}

/** Before an error answer: drop the headers Node would refuse, so the problem itself goes out. */
export function dropUnwritableHeaders(reply: HeaderTarget): void {
  for (const name of unwritableHeaders(reply)) reply.removeHeader(name);
}

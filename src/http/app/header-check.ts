// Node refuses to write a header value with a character outside Latin-1 or a control character
// (ERR_INVALID_CHAR), and it does so in writeHead, after every hook has run, where Fastify can
// only answer with its own JSON error body (and a status line left half-written, `500 See
// Other`). So the layer checks the headers itself, in its last onSend hook: a bad value is a
// bug of ours, answered like any other unexpected error (a 500 problem in the negotiated
// format, reported once), and the problem answer drops whatever headers Node would refuse.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { FastifyReply } from 'fastify';

export class InvalidHeaderError extends Error {
  readonly headerName: string;
  constructor(headerName: string) {
    super(`Invalid character in the value of response header ${JSON.stringify(headerName)}`);
    this.name = 'InvalidHeaderError';
    this.headerName = headerName;
  }
}

function writable(name: string, value: unknown): boolean {
  try {
    validateHeaderName(name);
    for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(one));
    return true;
  } catch {
    return false;
  }
}

/** The names of the reply's headers that Node would refuse to write. */
export function unwritableHeaders(reply: FastifyReply): string[] {
  return Object.entries(reply.getHeaders())
    .filter(([name, value]) => value !== undefined && !writable(name, value))
    .map(([name]) => name);
}

/** onSend: refuse to send what writeHead would throw on. */
export function checkHeaders(reply: FastifyReply): void {
  const [bad] = unwritableHeaders(reply);
  if (bad !== undefined) throw new InvalidHeaderError(bad);
}

/** Before an error answer: drop the headers Node would refuse, so the problem itself goes out. */
export function dropUnwritableHeaders(reply: FastifyReply): void {
  for (const name of unwritableHeaders(reply)) reply.removeHeader(name);
}

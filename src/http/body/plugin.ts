// Wires the body parsers into a Fastify instance. Not an encapsulated plugin on purpose: it is
// called on the instance whose routes should use it (createResourceApp's root), so the parsers
// and hooks apply to every route declared there. Fastify's own parsers are removed, so the only
// accepted types are ours and every other type gets our 415 (with Accept-Post) instead of
// Fastify's. Errors are the layer's HttpError; its error handler sends their headers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Fields } from './fields.ts';
import { parseForm } from './form.ts';
import { HttpError } from '../errors/index.ts';
import { parseJsonFields } from './json.ts';
import { DEFAULT_BODY_LIMIT, decodeUtf8, readBody, tooLarge } from './read.ts';
import { parseXmlFields } from './xml.ts';

export const ACCEPTED_BODY_TYPES = [
  'application/x-www-form-urlencoded',
  'application/json',
  'application/xml',
];
/** Value of `Accept-Post` (RFC 9110 uses it for POST; we also send it on a PUT's 415). */
export const ACCEPT_POST = ACCEPTED_BODY_TYPES.join(', ');

const PARSERS: Record<string, (text: string) => Fields> = {
  'application/x-www-form-urlencoded': parseForm,
  'application/json': parseJsonFields,
  'application/xml': parseXmlFields,
  'text/xml': parseXmlFields,
};

export interface BodyParserOptions {
  /** Largest accepted body in bytes (default 1 MiB); larger → 413. */
  readonly limit?: number;
}

function unsupported(detail: string): HttpError {
  return new HttpError('SHELFMARK_UNSUPPORTED_MEDIA_TYPE', {
    detail: `${detail} Accepted: ${ACCEPT_POST}.`,
    headers: { 'Accept-Post': ACCEPT_POST },
  });
}

/** The parser for a Content-Type header value; unsupported type or a charset other than UTF-8 → 415. */
export function parserFor(contentType: string | undefined): (text: string) => Fields {
  const [type = '', ...params] = (contentType ?? '').split(';');
  const parse = PARSERS[type.trim().toLowerCase()];
  if (!parse)
    throw unsupported(
      contentType ? `The body type ${type.trim()} is not supported.` : 'The body has no Content-Type.',
    );
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((s) => s.trim().toLowerCase());
    const charset = value.replace(/^"|"$/g, '');
    if (name === 'charset' && charset !== 'utf-8' && charset !== 'us-ascii') {
      throw unsupported(`The charset ${charset} is not supported; send UTF-8.`);
    }
  }
  return parse;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function registerBodyParsers(app: FastifyInstance, options: BodyParserOptions = {}): void {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;

  // Refuse early, before reading a byte: wrong type → 415, declared length over the limit → 413.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !hasBody(request)) return payload;
    parserFor(request.headers['content-type']);
    if (Number(request.headers['content-length']) > limit) throw tooLarge(limit);
    return payload;
  });

  app.removeAllContentTypeParsers();
  const parse = async (request: FastifyRequest, payload: Readable): Promise<Fields> => {
    const text = decodeUtf8(await readBody(payload, limit));
    return parserFor(request.headers['content-type'])(text);
  };
  app.addContentTypeParser(Object.keys(PARSERS), parse);
  // Backstop: the preParsing hook already refused these, unless the body had no length header.
  app.addContentTypeParser('*', async (request: FastifyRequest) => {
    throw unsupported(`The body type ${request.headers['content-type'] ?? '(none)'} is not supported.`);
  });
}

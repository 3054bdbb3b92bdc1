// The body parsers as Fastify content-type parsers. Not an encapsulated plugin on purpose: it
// is called on the instance whose routes should use it (the layer's root, from
// app/pipeline.ts, which also registers refuseBeforeReading as its preParsing hook). Fastify's
// own parsers are removed, so the only accepted types are ours and every other type gets our
// 415 (with Accept-Post) instead of Fastify's. Errors are the layer's HttpError; its error
// handler sends their headers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Fields } from './fields.ts';
import { parseForm } from './form.ts';
import { HttpError } from '../errors/index.ts';
import { parseJsonFields } from './json.ts';
import type { MediaType } from './media-type.ts';
import { decodeUtf8, readBody, tooLarge } from './read.ts';
import { parseXmlFields } from './xml.ts';
import { MERGE_PATCH_TYPE } from './merge-patch.ts';

export const ACCEPTED_BODY_TYPES = [
  'application/x-www-form-urlencoded',
  'application/json',
  'application/xml',
];
/** Value of `Accept-Post` (RFC 9110 uses it for POST; we also send it on a PUT's 415). */
export const ACCEPT_POST = ACCEPTED_BODY_TYPES.join(', ');
/** Value of `Accept-Patch` (RFC 5789 §3.1): PATCH takes JSON Merge Patch (RFC 7396) only. */
export const ACCEPT_PATCH = MERGE_PATCH_TYPE;

const PARSERS: Record<string, (text: string) => Fields> = {
  'application/x-www-form-urlencoded': parseForm,
  'application/json': parseJsonFields,
  'application/xml': parseXmlFields,
  'text/xml': parseXmlFields,
  // For PATCH only (refuseBeforeReading): JSON whose meaning is "merge into the resource".
  [MERGE_PATCH_TYPE]: parseJsonFields,
};

/** Every media type a body parser exists for (which of them a method takes: parserFor). */
export const PARSED_MEDIA_TYPES: readonly string[] = Object.keys(PARSERS);

export interface BodyParserOptions {
  /** Largest accepted body in bytes; larger → 413. */
  readonly limit: number;
  /** The request's parsed Content-Type (the layer parses it once per request). */
  readonly mediaTypeOf: (request: FastifyRequest) => MediaType;
  /** Told the size of every body read within the limit (the layer warns near the limit). */
  readonly onBodyRead?: (request: FastifyRequest, size: number) => void;
}

function unsupported(detail: string): HttpError {
  return new HttpError('SHELFMARK_UNSUPPORTED_MEDIA_TYPE', {
    detail: `${detail} Accepted: ${ACCEPT_POST}.`,
    headers: { 'Accept-Post': ACCEPT_POST },
  });
}

/** 415 for a PATCH whose body is not a merge patch. */
export function unsupportedPatch(media: MediaType): HttpError {
  const type = media.header ? (media.header.split(';')[0] ?? '').trim() : '(none)';
  return new HttpError('SHELFMARK_UNSUPPORTED_MEDIA_TYPE', {
    detail: `PATCH takes a JSON Merge Patch (${ACCEPT_PATCH}), not ${type}.`,
    headers: { 'Accept-Patch': ACCEPT_PATCH },
  });
}

/**
 * The parser for a Content-Type; unsupported type or a charset other than UTF-8 → 415. PATCH
 * takes a merge patch and nothing else; every other method anything but a merge patch.
 */
export function parserFor(media: MediaType, method?: string): (text: string) => Fields {
  if (method === 'PATCH' && media.type !== MERGE_PATCH_TYPE) throw unsupportedPatch(media);
  const parse = method !== 'PATCH' && media.type === MERGE_PATCH_TYPE ? undefined : PARSERS[media.type];
  if (!parse)
    throw unsupported(
      media.header
        ? `The body type ${(media.header.split(';')[0] ?? '').trim()} is not supported.`
        : 'The body has no Content-Type.',
    );
  for (const charset of media.charsets) {
    if (charset !== 'utf-8' && charset !== 'us-ascii') {
      throw unsupported(`The charset ${charset} is not supported; send UTF-8.`);
    }
  }
  return parse;
}

/** The request says it has a body: a length above 0, or chunked. */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The preParsing check: refuse before reading a byte — wrong type → 415, declared length over
 * the limit → 413. GET/HEAD bodies are ignored, so never refused.
 */
export function refuseBeforeReading(
  request: FastifyRequest,
  mediaTypeOf: (request: FastifyRequest) => MediaType,
  limit: number,
): void {
  const { method, headers } = request;
  if (method === 'GET' || method === 'HEAD' || !hasBody(headers)) return;
  parserFor(mediaTypeOf(request), method);
  if (Number(headers['content-length']) > limit) throw tooLarge(limit);
}

/** Registers the content-type parsers (no hooks: the caller places refuseBeforeReading). */
export function registerBodyParsers(app: FastifyInstance, options: BodyParserOptions): void {
  const { limit, mediaTypeOf } = options;
  app.removeAllContentTypeParsers();
  const parse = async (request: FastifyRequest, payload: Readable): Promise<Fields> => {
    const parser = parserFor(mediaTypeOf(request), request.method);
    const bytes = await readBody(payload, limit);
    options.onBodyRead?.(request, bytes.length);
    return parser(decodeUtf8(bytes));
  };
  app.addContentTypeParser(Object.keys(PARSERS), parse);
  // Backstop: refuseBeforeReading already refused these, unless the body had no length header.
  app.addContentTypeParser('*', async (request: FastifyRequest) => {
    throw unsupported(`The body type ${request.headers['content-type'] ?? '(none)'} is not supported.`);
  });
}

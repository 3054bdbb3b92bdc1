// /oai, the OAI-PMH base URL (ADR 0081): a plain route outside negotiation (passthrough), since
// the protocol fixes its one representation (text/xml) and answers its errors inside it with 200.
// GET takes the arguments from the query, POST from an application/x-www-form-urlencoded body
// (OAI-PMH 2.0, 3.1.1.2); HEAD answers GET's headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLinks } from '../../http/index.ts';
import { parseMediaType, type Fields } from '../../http/body/index.ts';
import { HttpError } from '../shared/index.ts';
import { createProvider, type Place, type ProviderOptions } from './provider.ts';
import { readArguments, type RawArguments } from './request.ts';

export const OAI_PATH = '/oai';

const FORM = 'application/x-www-form-urlencoded';

/** Arguments from a parsed form body; null when a value is not text. */
function fieldArguments(body: unknown): RawArguments | null {
  if (body === undefined || body === null) return new Map();
  if (typeof body !== 'object' || Array.isArray(body)) return null;
  const raw = new Map<string, string[]>();
  for (const [name, value] of Object.entries(body as Fields)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((v): v is string => typeof v === 'string')) return null;
    raw.set(name, values);
  }
  return raw;
}

function argumentsOf(request: FastifyRequest): RawArguments | null {
  if (request.method === 'POST') {
    // The protocol's POST is a form (3.1.1.2); JSON or XML bodies would be parsed, but are not OAI-PMH.
    if (parseMediaType(request.headers['content-type']).type !== FORM)
      throw new HttpError('SHELFMARK_UNSUPPORTED_MEDIA_TYPE', {
        detail: `An OAI-PMH POST carries its arguments as ${FORM}.`,
        headers: { 'Accept-Post': FORM },
      });
    return fieldArguments(request.body);
  }
  const at = request.url.indexOf('?');
  return readArguments(at < 0 ? '' : request.url.slice(at + 1));
}

function placeOf(request: FastifyRequest): Place {
  const links = requestLinks(request);
  if (!links) throw new Error('the OAI-PMH route needs the resource layer (createResourceApp)');
  const baseUrl = links.absolute(OAI_PATH);
  return { baseUrl, absolute: (p) => links.absolute(p), host: new URL(baseUrl).hostname };
}

export function registerOaiRoute(app: FastifyInstance, options: ProviderOptions): void {
  const provider = createProvider(options);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await provider.answer(placeOf(request), argumentsOf(request));
    reply.type('text/xml; charset=utf-8').header('Cache-Control', 'no-cache');
    return request.method === 'HEAD' ? reply.send() : reply.send(body);
  };
  app.route({ method: ['GET', 'HEAD', 'POST'], url: OAI_PATH, handler });
}

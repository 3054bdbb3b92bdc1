// The configuration every part of the running layer needs, resolved once at start-up.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Format, Principal } from '../resource/types.ts';
import type { FormatSource } from '../negotiation/format.ts';
import type { PublicBase, TrustFunction } from '../links/links.ts';
import type { ErrorPage } from '../errors/error-page.ts';
import { requestInfo, type RequestInfo } from './request-info.ts';
import type { LayerSecurity } from './security.ts';

export interface Layer {
  readonly base: PublicBase;
  readonly trust: TrustFunction;
  readonly displayErrors: boolean;
  readonly errorPage: ErrorPage;
  readonly reportError: ((error: unknown, raw: IncomingMessage) => void) | undefined;
  readonly authenticate: ((request: FastifyRequest) => Promise<Principal | null>) | undefined;
  readonly security: LayerSecurity | undefined;
  readonly requirePreconditions: boolean;
}

export function infoOf(layer: Layer, request: FastifyRequest): RequestInfo {
  return requestInfo(request, layer.base, layer.trust);
}

/** `Vary: Accept` when the Accept header chose the format; `Accept-Language` for every HTML body. */
export function setVary(reply: FastifyReply, source: FormatSource, format: Format): void {
  const vary = [source === 'accept' && 'Accept', format === 'html' && 'Accept-Language'].filter(Boolean);
  if (vary.length > 0) reply.header('Vary', vary.join(', '));
}

export interface LinkValue {
  readonly url: string;
  readonly rel: string;
  readonly type?: string;
}

export function linkHeader(links: readonly LinkValue[]): string {
  return links.map((l) => `<${l.url}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ''}`).join(', ');
}

/** Sends a body, or for HEAD only its length: Node would drop the bytes anyway. */
export function sendBody(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  if (request.method !== 'HEAD') return reply.send(body);
  reply.header('Content-Length', String(Buffer.byteLength(body)));
  return reply.send();
}

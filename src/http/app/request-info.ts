// Per-request facts derived once from the headers: links base, language, format choice.
import type { FastifyRequest } from 'fastify';
import type { Lang, Links } from '../resource/types.ts';
import { chooseErrorFormat, chooseFormat, type FormatChoice } from '../negotiation/format.ts';
import { negotiateLanguage } from '../negotiation/language.ts';
import { createLinks, requestBase, type PublicBase, type TrustFunction } from '../links/links.ts';
import type { ResolvedUrl } from '../rewrite/resolve.ts';
import { requestState } from './request-state.ts';

export interface RequestInfo {
  readonly originalUrl: string;
  readonly resolved: ResolvedUrl;
  readonly links: Links;
  readonly lang: Lang;
  readonly choice: FormatChoice;
  readonly errorFormat: ReturnType<typeof chooseErrorFormat>;
  /** The absolute URL the client asked for (`instance` of a problem). */
  readonly instance: string;
}

const infos = new WeakMap<FastifyRequest, RequestInfo>();

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function requestInfo(request: FastifyRequest, base: PublicBase, trust: TrustFunction): RequestInfo {
  const known = infos.get(request);
  if (known) return known;
  const state = requestState(request.raw);
  const resolved: ResolvedUrl = state?.resolved ?? { kind: 'not-found', why: 'outside-base' };
  const originalUrl = state?.originalUrl ?? request.url;
  const publicBase = requestBase(base, request.raw, trust);
  const inputs = {
    suffix: resolved.kind === 'resource' ? resolved.suffix : null,
    formatParam: resolved.kind === 'resource' ? resolved.formatParam : null,
    accept: header(request, 'accept'),
  };
  const info: RequestInfo = {
    originalUrl,
    resolved,
    links: createLinks(publicBase),
    lang: negotiateLanguage(header(request, 'accept-language')),
    choice: chooseFormat(inputs),
    errorFormat: chooseErrorFormat(inputs),
    instance: publicBase.origin + (originalUrl.startsWith('/') ? originalUrl : '/'),
  };
  infos.set(request, info);
  return info;
}

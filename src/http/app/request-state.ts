// Everything the layer knows about one request, in one object (ADR 0038, 0071): created in
// rewriteUrl, before routing, and handed to the request in `start` (`request.state`). Only the
// raw-request callers (rewriteUrl's hand-over, the access log's %u) look it up by the
// IncomingMessage. Each fact is computed once, when first asked for.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { ExtraFormat, Lang, Links, Principal, UnsafeMethod } from '../resource/types.ts';
import { ANONYMOUS, type Authentication } from '../auth/index.ts';
import { bodyTypeOf, parseMediaType, type MediaType } from '../body/index.ts';
import {
  chooseErrorFormat,
  chooseFormat,
  type FormatChoice,
  type FormatInputs,
  unofferedFormat,
} from '../negotiation/format.ts';
import { negotiateLanguage } from '../negotiation/language.ts';
import { createLinks, requestBase, type PublicBase } from '../links/links.ts';
import { resolveUrl, type ResolvedUrl } from '../rewrite/resolve.ts';
import { headerValue, type Layer } from './layer.ts';
import type { KeptCapture, KeptLookup } from './kept-response.ts';

export class RequestState {
  readonly layer: Layer;
  readonly raw: IncomingMessage;
  /** The request target exactly as the client sent it (what the access log shows). */
  readonly originalUrl: string;
  readonly resolved: ResolvedUrl;
  /** Set by the preHandler for a POSTed form with `_method=PUT|DELETE`. */
  methodOverride: UnsafeMethod | undefined = undefined;
  /** %u of the access log, a normal JS string: the authenticated (or tried Basic) user name. */
  accessUser: string | undefined = undefined;
  /** The handler saw a user (ctx.user): the answer is for this viewer only (Cache-Control: private). */
  viewerKnown = false;
  /** A keyed GET's request key and the version read for it in the first stage (kept-response.ts). */
  kept: KeptLookup | undefined = undefined;
  /** The rendering the dispatcher answered a keyed GET with: kept in the finishing stage. */
  keptCapture: KeptCapture | undefined = undefined;
  #publicBase: PublicBase | undefined;
  #links: Links | undefined;
  #lang: Lang | undefined;
  #choice: FormatChoice | null | undefined;
  #errorFormat: ReturnType<typeof chooseErrorFormat> | undefined;
  #mediaType: MediaType | undefined;
  #authentication: Promise<Authentication> | undefined;
  #reported: unknown[] | undefined;

  constructor(layer: Layer, raw: IncomingMessage, url: string, resolved?: ResolvedUrl) {
    this.layer = layer;
    this.raw = raw;
    this.originalUrl = url;
    this.resolved = resolved ?? resolveUrl(url, layer.space);
  }

  /** The base URL as this request sees it (X-Forwarded-* from trusted proxies). */
  get publicBase(): PublicBase {
    return (this.#publicBase ??= requestBase(this.layer.base, this.raw, this.layer.trust));
  }

  get links(): Links {
    return (this.#links ??= createLinks(this.publicBase));
  }

  get lang(): Lang {
    return (this.#lang ??= negotiateLanguage(headerValue(this.raw.headers, 'accept-language')));
  }

  #formatInputs(): FormatInputs {
    const resolved = this.resolved;
    return {
      suffix: resolved.kind === 'resource' ? resolved.suffix : null,
      formatParam: resolved.kind === 'resource' ? resolved.formatParam : null,
      accept: headerValue(this.raw.headers, 'accept'),
    };
  }

  /**
   * The representation's format (or 406), for the dispatcher: among HTML, XML, JSON and the
   * extra formats the request's resource offers. Null: the suffix or `?format=` names an extra
   * format the resource does not have, so the URL names nothing (404).
   */
  choiceFor(extras: readonly ExtraFormat[] = []): FormatChoice | null {
    if (this.#choice !== undefined) return this.#choice;
    const inputs = this.#formatInputs();
    return (this.#choice = unofferedFormat(inputs, extras) ? null : chooseFormat(inputs, extras));
  }

  /** The format of an error answer: never 406, so it falls back where `choice` would not. */
  get errorFormat(): ReturnType<typeof chooseErrorFormat> {
    return (this.#errorFormat ??= chooseErrorFormat(this.#formatInputs()));
  }

  /** The absolute URL the client asked for (`instance` of a problem). */
  get instance(): string {
    return this.publicBase.origin + (this.originalUrl.startsWith('/') ? this.originalUrl : '/');
  }

  /** The Content-Type, parsed once for the body parsers, the method override and ctx.bodyType. */
  get mediaType(): MediaType {
    return (this.#mediaType ??= parseMediaType(headerValue(this.raw.headers, 'content-type')));
  }

  get bodyType(): 'form' | 'json' | 'xml' | null {
    return bodyTypeOf(this.mediaType);
  }

  /**
   * Who is asking: Basic credentials, else the session cookie (security), else
   * options.authenticate, else nobody. Asked for once per request, whoever asks first (the
   * preHandler, a plain route, an error page); names %u when it settles.
   */
  authentication(request: FastifyRequest): Promise<Authentication> {
    return (this.#authentication ??= this.#authenticate(request));
  }

  /**
   * Nobody, known without I/O: the layer's own authentication is configured and the request
   * carries neither credentials nor the session cookie (most reads). The stages then go on in
   * the same turn instead of awaiting a promise (ADR 0071's figures).
   */
  isPlainlyAnonymous(request: FastifyRequest): boolean {
    const { auth, authenticate } = this.layer;
    if (authenticate !== undefined) return false;
    if (auth === undefined) return true;
    return request.headers.authorization === undefined && request.cookies?.[auth.cookies.name] === undefined;
  }

  async #authenticate(request: FastifyRequest): Promise<Authentication> {
    const { auth, authenticate } = this.layer;
    if (auth) {
      const result = await auth.authenticator.authenticate({
        authorization: request.headers.authorization,
        sessionCookie: request.cookies?.[auth.cookies.name],
        address: request.ip,
      });
      if (result.logUser !== undefined) this.accessUser = result.logUser;
      return result;
    }
    if (!authenticate) return ANONYMOUS;
    const principal = await authenticate(request);
    return principal ? { ...ANONYMOUS, principal } : ANONYMOUS;
  }

  /** True the first time `error` is reported for this request (a failing error page reports too). */
  firstReport(error: unknown): boolean {
    const key = typeof error === 'object' && error !== null ? error : this;
    this.#reported ??= [];
    if (this.#reported.includes(key)) return false;
    this.#reported.push(key);
    return true;
  }
}

/** The one per-request store besides the state itself: rewriteUrl sees only the raw request. */
const states = new WeakMap<IncomingMessage, RequestState>();

/** Called from rewriteUrl: the request's state, with its URL resolved once. */
export function startRequest(layer: Layer, raw: IncomingMessage): RequestState {
  const state = new RequestState(layer, raw, raw.url ?? '/');
  states.set(raw, state);
  return state;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's RequestState, handed over in the first stage (pipeline.ts). */
    state: RequestState;
  }
}

/** The request's state; one Fastify refused before rewriteUrl ran gets a not-found one here. */
export function stateOf(layer: Layer, request: FastifyRequest): RequestState {
  // Fastify's decorator leaves the slot null until the first stage fills it.
  const handed = request.state as RequestState | null;
  if (handed) return handed;
  const state =
    states.get(request.raw) ??
    new RequestState(layer, request.raw, request.url, { kind: 'not-found', why: 'outside-base' });
  request.state = state;
  return state;
}

/** %u for the http server's access log (createHttpServer's accessUser option). */
export function accessUser(raw: IncomingMessage): string | undefined {
  return states.get(raw)?.accessUser;
}

/** For the application's plain routes (`configure`): the same user as ctx.user, or null. */
export async function requestPrincipal(request: FastifyRequest): Promise<Principal | null> {
  const state = request.state as RequestState | null;
  return state ? (await state.authentication(request)).principal : null;
}

/** For the application's plain routes: the same links as ctx.links; undefined outside the layer. */
export function requestLinks(request: FastifyRequest): Links | undefined {
  return (request.state as RequestState | null)?.links;
}

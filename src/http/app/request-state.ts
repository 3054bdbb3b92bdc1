// Everything the layer knows about one request, in one object (ADR 0038, 0071, 0116): created
// in `start`, the first stage after routing, from the target rewriteUrl resolved, and handed to
// the request (`request.state`). Only the access log's %u looks it up by the IncomingMessage,
// and only for a request that named a user. Each fact is computed once, when first asked for.
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
import type { ResolvedUrl } from '../rewrite/resolve.ts';
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
  /** The handler saw a user (ctx.user): the answer is for this viewer only (Cache-Control: private). */
  viewerKnown = false;
  /** A keyed GET's request key and the version read for it in the first stage (kept-response.ts). */
  kept: KeptLookup | undefined = undefined;
  /** The rendering the dispatcher answered a keyed GET with: kept in the finishing stage. */
  keptCapture: KeptCapture | undefined = undefined;
  /**
   * The body's coding is chosen already — a prepared representation's or a kept answer's (ADR
   * 0014): the finishing stage compresses nothing more. A problem sent instead clears it.
   */
  bodyCoded = false;
  /** Answered from a kept response in the `kept` stage (kept-response.ts). */
  keptAnswer = false;
  #publicBase: PublicBase | undefined;
  #links: Links | undefined;
  #lang: Lang | undefined;
  #choice: FormatChoice | null | undefined;
  #errorFormat: ReturnType<typeof chooseErrorFormat> | undefined;
  #mediaType: MediaType | undefined;
  #authentication: Promise<Authentication> | undefined;
  #reported: unknown[] | undefined;
  #accessUser: string | undefined;

  constructor(layer: Layer, raw: IncomingMessage, url: string, resolved?: ResolvedUrl) {
    this.layer = layer;
    this.raw = raw;
    this.originalUrl = url;
    this.resolved = resolved ?? layer.resolve(url);
  }

  /** %u of the access log, a normal JS string: the authenticated (or tried Basic) user name. */
  get accessUser(): string | undefined {
    return this.#accessUser;
  }

  set accessUser(name: string | undefined) {
    this.#accessUser = name;
    named.set(this.raw, this);
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

/**
 * The one per-request store besides the state itself: the access log asks for %u by the raw
 * request. Only requests that named a user are in it (most reads name none).
 */
const named = new WeakMap<IncomingMessage, RequestState>();

/**
 * Called from rewriteUrl, which sees only the raw request: the URL the router sees. The layer's
 * resolver remembers the answer, so `start` finds it again without resolving twice.
 */
export function routedUrlOf(layer: Layer, raw: IncomingMessage): string {
  const resolved = layer.resolve(raw.url ?? '/');
  // Anything that is not a resource or passthrough is answered by `start`; route it to the root
  // so no application route (and no route-level hook) sees it.
  return resolved.kind === 'resource' || resolved.kind === 'passthrough' ? resolved.routedUrl : '/';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's RequestState, handed over in the first stage (pipeline.ts). */
    state: RequestState;
  }
}

/**
 * The request's state, made by its first stage. Fastify keeps the client's target in
 * `raw.originalUrl` when it calls rewriteUrl; a request it refused before that gets a
 * not-found state.
 */
export function stateOf(layer: Layer, request: FastifyRequest): RequestState {
  // Fastify's decorator leaves the slot null until the first stage fills it.
  const handed = request.state as RequestState | null;
  if (handed) return handed;
  const raw = request.raw as IncomingMessage & { originalUrl?: string };
  const original = raw.originalUrl;
  const state =
    original === undefined
      ? new RequestState(layer, raw, request.url, { kind: 'not-found', why: 'outside-base' })
      : new RequestState(layer, raw, original);
  request.state = state;
  return state;
}

/** %u for the http server's access log (createHttpServer's accessUser option). */
export function accessUser(raw: IncomingMessage): string | undefined {
  return named.get(raw)?.accessUser;
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

// The contract between the resource layer (src/http) and an application built on it.
// The application declares resources (a route path and a handler per method) and a rewrite
// table; the layer does negotiation, links, conditional requests, errors and method rules.
import type { Markup } from '../representation/markup.ts';
import type { HttpError } from '../errors/http-error.ts';

/** The formats every resource answers in. */
export type CoreFormat = 'html' | 'xml' | 'json';
/**
 * Formats only the resources that name them in `formats` offer (ADR 0095, 0096): a work's
 * citations (RIS, BibTeX) and the Atom feeds of the works and of a person's works. Anywhere
 * else their suffix is a 404 and their media type a 406.
 */
export type ExtraFormat = 'ris' | 'bib' | 'atom';
export type Format = CoreFormat | ExtraFormat;
export const FORMATS: readonly CoreFormat[] = ['html', 'xml', 'json'];
export type Lang = 'de' | 'en';

/**
 * A request's query parameters, read-only: one resolved request target serves every request
 * that sent it (rewrite/resolve.ts urlResolver), so nobody may change it. Copy it
 * (`new URLSearchParams(query)`) to build another.
 */
export type QueryParams = Omit<URLSearchParams, 'append' | 'delete' | 'set' | 'sort'>;
export type UnsafeMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type HandlerMethod = 'GET' | UnsafeMethod;

/** Builds URLs under the public base (origin + optional path prefix such as /katalog). */
export interface Links {
  /** Absolute URL, for XML and JSON: `https://library.example/katalog/werke/faust`. */
  absolute(path: string): string;
  /** Root-relative URL, for HTML: `/katalog/werke/faust`. */
  relative(path: string): string;
}

export interface Principal {
  readonly id: number;
  readonly username: string;
  readonly role: 'member' | 'staff';
}

export interface RequestContext {
  readonly method: HandlerMethod | 'HEAD';
  /** The representation the response will have (already negotiated; 406 never reaches a handler). */
  readonly format: Format;
  /**
   * How the client chose it: a `.json`-style suffix, `?format=`, or the Accept header. Links to
   * other pages of the same resource keep an explicit choice (keepFormat, src/http/rewrite).
   */
  readonly formatSource: 'suffix' | 'query' | 'accept';
  readonly lang: Lang;
  /** Route parameters from the rewrite table merged with the client's query string. */
  readonly query: QueryParams;
  readonly links: Links;
  /** The path the client asked for, without base prefix and format suffix, e.g. `/person`. */
  readonly path: string;
  /** The authenticated user, or null (filled by issue 4's sessions / Basic auth). */
  readonly user: Principal | null;
  /** The parsed request body of POST/PUT (field name → value), or undefined. */
  readonly body: unknown;
  /** How the body was sent: `form` (an HTML form: answer 303 / re-render on 422), `json`, `xml`, or null. */
  readonly bodyType: 'form' | 'json' | 'xml' | null;
  /** The client's address (after trusted-proxy resolution), for rate limits. */
  readonly address: string;
  /** CSRF token for HTML forms of a cookie session (`_csrf` field); null without a session. */
  readonly csrfToken: string | null;
  /** Log in / log out: sets or clears the one session cookie on this response. */
  readonly session: SessionControl;
  /**
   * PUT/DELETE preconditions against the resource's current representation (null: it does not
   * exist): a stale `If-Match` (or a form's `_version` field) → 412; none while preconditions
   * are required → 428. Returns normally when the write may go ahead.
   */
  checkPreconditions(current: Representation<never> | Representation<unknown> | null): void;
  /** The version token of a representation, for an HTML form's hidden `_version` field. */
  versionOf(representation: Representation<never> | Representation<unknown>): string;
}

export interface SessionControl {
  /** Checks the credentials (rate-limited per account and address) and sets the session cookie.
   * Throws HttpError 401 (wrong credentials) or 429 (too many failures, with Retry-After). */
  login(username: string, password: string): Promise<Principal>;
  /** Ends the session everywhere (its record, ADR 0076) and clears the session cookie. */
  logout(): Promise<void>;
  /**
   * Checks the password of the user asking (e.g. the old one before a change), rate-limited and
   * logged like a log-in. False when it is wrong; throws HttpError 429 when too many failed.
   */
  confirmPassword(password: string): Promise<boolean>;
  /**
   * After the asking user's own session epoch moved (they changed their password): reissues
   * their session cookie under `epoch`, keeping the session id, so this device stays logged in
   * while every other session ends. Does nothing for Basic or anonymous clients.
   */
  renew(epoch: number): void;
}

/** How one model is written in each format. The layer adds the XML declaration. */
export interface View<M> {
  /** A whole HTML document. */
  html(model: M, ctx: RequestContext): Markup;
  /** The XML root element. */
  xml(model: M, ctx: RequestContext): Markup;
  /** A JSON-serialisable value; key order is kept. */
  json(model: M, ctx: RequestContext): unknown;
  /** RIS (a citation), for a resource offering `ris`: whole lines, each ending in CRLF. */
  ris?(model: M, ctx: RequestContext): string;
  /** A BibTeX entry, for a resource offering `bib`. */
  bib?(model: M, ctx: RequestContext): string;
  /** The Atom `<feed>` root element, for a resource offering `atom`. The layer adds the XML declaration. */
  atom?(model: M, ctx: RequestContext): Markup;
}

export interface LinkHeader {
  readonly rel: string;
  /** Path under the base (made absolute by the layer), e.g. `/werke?nach=abc`. */
  readonly path: string;
  /** The media type of what it names (an alternate's), sent as the link's `type`. */
  readonly type?: string;
}

export interface Representation<M = unknown> {
  readonly model: M;
  readonly view: View<M>;
  /** Canonical readable path under the base, e.g. `/personen/goethe` or `/werke?q=faust`. */
  readonly canonicalPath: string;
  readonly lastModified?: Date;
  /**
   * The moment this representation may change without any write: a kept copy's hold runs out,
   * a loan falls due. A cached rendering is not served from then on (ADR 0067); undefined: it
   * changes only by writes.
   */
  readonly freshUntil?: Date;
  /** Schema name: `/schema/{schema}.xsd` and `/schema/{schema}.json` (sent as rel=describedby). */
  readonly schema?: string;
  readonly links?: readonly LinkHeader[];
  /**
   * Sent as `X-Robots-Tag` in every format (e.g. `noindex`: a page search engines should not
   * keep, such as a filtered list); HTML pages say it in a robots meta element too.
   */
  readonly robots?: string;
}

export type Outcome =
  | {
      readonly type: 'representation';
      /**
       * 422 (or 409: a conflict at a desk's scan form): an HTML form shown again with its
       * problems (other formats get problem details).
       */
      readonly status?: 200 | 201 | 409 | 422;
      readonly representation: Representation<never> | Representation<unknown>;
      /** For 201: the new resource's path under the base (sent absolute in Location). */
      readonly location?: string;
    }
  | {
      readonly type: 'redirect';
      readonly status: 301 | 303 | 307 | 308;
      readonly path: string;
      /**
       * Send `Location` root-relative, so the browser stays on the host it used (a log-in from
       * `127.0.0.1` when the base names `localhost` would otherwise leave the origin that the
       * Content-Security-Policy's `form-action 'self'` allows, and the form would just stay put).
       */
      readonly relative?: boolean;
    }
  | { readonly type: 'empty'; readonly status: 204 };

export type Handler = ((ctx: RequestContext) => Promise<Outcome>) & {
  /**
   * The refusal this handler gives `user` whatever the request's body says (a write that needs
   * a log-in or staff), or undefined. The layer asks it before reading the body and answers
   * the refusal unread (app/refuse-unread.ts, ADR 0077): the same problem the handler throws.
   */
  readonly refuseUnread?: (user: Principal | null) => HttpError | undefined;
};

export interface ResourceDefinition {
  readonly name: string;
  /** The route the handler answers at after rewriting, e.g. `/person` or `/personen`. */
  readonly path: string;
  readonly methods: Partial<Record<HandlerMethod, Handler>>;
  /** The extra formats its representations have besides HTML, XML and JSON (their views write them). */
  readonly formats?: readonly ExtraFormat[];
  /**
   * GET's 200 representation depends only on the request's URL, format, language, viewer and
   * the database (nothing else: no clock, no files): the layer may keep the rendered bytes
   * while the database version is unchanged (ADR 0048).
   */
  readonly cacheable?: boolean;
  /**
   * What a cacheable GET's 200 shows, as the subjects the application's change feed names
   * (ADR 0088: `person:12`, `works` …), given the model rendered: the cached rendering is
   * dropped when one of them changes. Undefined (absent, or for a model it does not know):
   * everything — any write drops it.
   */
  readonly dependsOn?: (model: never, ctx: RequestContext) => readonly string[] | undefined;
  /**
   * For a resource whose route serves URLs with different methods (the staff's `/ausleihen`
   * and a user's `/ausleihen?benutzer=1` share one route): the methods of `methods` the URL
   * with this (merged) query has. Allow, OPTIONS and 405 follow it. Absent: all of them.
   */
  readonly methodsAt?: (query: QueryParams) => readonly HandlerMethod[];
}

/** One line of the rewrite table, like mod_rewrite: `^/personen/([^/.]+)$` → `/person?slug=$1`. */
export interface RewriteRule {
  readonly pattern: RegExp;
  readonly target: string;
}

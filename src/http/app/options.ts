import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerFactory } from 'fastify';
import type { Principal, ResourceDefinition, RewriteRule } from '../resource/types.ts';
import type { ErrorPage } from '../errors/error-page.ts';
import type { AuthenticatorOptions } from '../auth/index.ts';
import type { RepresentationCache } from '../cache/index.ts';
import type { HealthOptions } from '../health/index.ts';
import type { ErrorLog } from '../../logging/index.ts';

/**
 * Sessions, HTTP Basic, CSRF and log-in (docs/access.md): the authenticator's options (account
 * storage and password hashing are the application's) but the session codec, which the layer makes.
 */
export interface SecurityConfig extends Omit<AuthenticatorOptions, 'sessions'> {
  /** Signing secrets for session cookies and CSRF tokens, newest first (rotation). */
  readonly secrets: readonly string[];
  readonly sessionTtlSeconds?: number;
  readonly csrfMaxAgeSeconds?: number;
  /** Origins the CSRF origin check accepts (default: the base URL's origin). */
  readonly origins?: readonly string[];
  /** The clock of sessions and CSRF tokens; default ResourceAppOptions.clock. */
  readonly now?: () => number;
}

export interface ResourceAppOptions {
  /** Public base URL, may carry a path prefix: `https://library.example/katalog`. */
  readonly baseUrl: string;
  /** Peers (IPs/CIDRs, proxy-addr syntax) whose X-Forwarded-Proto/-Host are believed. */
  readonly trustProxy: readonly string[];
  /**
   * Origins that may use the API with credentials across origins (CORS with
   * Allow-Credentials, every method); give them to `security.origins` too. Default: none.
   */
  readonly corsOrigins?: readonly string[];
  readonly resources: readonly ResourceDefinition[];
  readonly rewrites: readonly RewriteRule[];
  /** Path prefixes under the base untouched by suffix and rewrite logic: `/static/`, `/schema/`. */
  readonly passthrough?: readonly string[];
  /** Registers the application's extra routes (static files, schemas). Runs after the layer's hooks. */
  readonly configure?: (app: FastifyInstance) => unknown;
  /** A whole HTML document for an error, in the application's layout. */
  readonly errorPage?: ErrorPage;
  /** A 500 shows class, message, file, line, stack and source; off → the body is empty. */
  readonly displayErrors: boolean;
  /** Called once per unexpected error (500) and per storage 503 (busy/unavailable), e.g. to write the error log. */
  readonly reportError?: (error: unknown, raw: IncomingMessage) => void;
  /** Sessions, Basic, CSRF: fills ctx.user, ctx.csrfToken and ctx.session. */
  readonly security?: SecurityConfig;
  /** The log-in resource's path under the base (e.g. `/sitzung`): its POST gets the origin check only. */
  readonly loginPath?: string;
  /** PUT/DELETE of an existing resource without If-Match (or `_version`) → 428. */
  readonly requirePreconditions?: boolean;
  /** Fills ctx.user when `security` is not given (tests, other applications). */
  readonly authenticate?: (request: FastifyRequest) => Promise<Principal | null>;
  /** The http server (src/server's createHttpServer: Apache access log, limits). */
  readonly serverFactory?: FastifyServerFactory;
  /**
   * The server answers requests Node's parser rejects itself (its own 'clientError' listener,
   * as createHttpServer's does): Fastify then adds no answer of its own (which would write a
   * second response and destroy the socket before the server's answer is flushed).
   */
  readonly handlesClientErrors?: boolean;
  /** Largest accepted request body in bytes (default 1 MiB); larger → 413. */
  readonly bodyLimit?: number;
  /**
   * Keeps rendered GET representations of resources marked `cacheable`, valid while the
   * database version it reads is unchanged (ADR 0048). Absent: every GET runs its handler.
   */
  readonly representationCache?: RepresentationCache;
  /** `/up` (under the base): 200 while `check` resolves, 503 otherwise, never an error-log entry. */
  readonly health?: HealthOptions;
  /**
   * The Apache error log: failed log-ins, refusals and 404s get httpd's entries (so fail2ban's
   * stock filters match, docs/decisions/0049), and the layer's warnings go here.
   */
  readonly errorLog?: ErrorLog;
  /** The file-system path httpd would map URLs to; only written into error-log entries (AH00128). */
  readonly documentRoot?: string;
  /** A response that takes longer than this (ms) is a `warn` entry; absent: never. */
  readonly slowRequestMs?: number;
  /**
   * Milliseconds since the epoch (default Date.now): Last-Modified, conditional requests, the
   * cache's freshness, sessions and CSRF tokens all read this one clock, so tests set it.
   */
  readonly clock?: () => number;
}

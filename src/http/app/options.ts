import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerFactory } from 'fastify';
import type { Principal, ResourceDefinition, RewriteRule } from '../resource/types.ts';
import type { ErrorPage } from '../errors/error-page.ts';

export interface ResourceAppOptions {
  /** Public base URL, may carry a path prefix: `https://library.example/katalog`. */
  readonly baseUrl: string;
  /** Peers (IPs/CIDRs, proxy-addr syntax) whose X-Forwarded-Proto/-Host are believed. */
  readonly trustProxy: readonly string[];
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
  /** Called once per unexpected error (500), e.g. to write the error log. */
  readonly reportError?: (error: unknown, raw: IncomingMessage) => void;
  /** Fills ctx.user. */
  readonly authenticate?: (request: FastifyRequest) => Promise<Principal | null>;
  /** An http server of the logging module's making (Apache access log). */
  readonly serverFactory?: FastifyServerFactory;
  readonly bodyLimit?: number;
  readonly production?: boolean;
}

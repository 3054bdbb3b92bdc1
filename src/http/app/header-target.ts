// What the layer's header functions write to: Fastify's reply, or the lean path's own record of
// a response (lean-get.ts). Both keep headers by lower-case name, in the order first set, the
// last value set winning — Fastify's rules, so that one function gives both paths the same
// headers in the same order (ADR 0070).
import type { IncomingHttpHeaders } from 'node:http';

export type HeaderValue = number | string | string[] | undefined;

/** The part of a FastifyReply the header functions use. */
export interface HeaderTarget {
  readonly statusCode: number;
  header(name: string, value: string): unknown;
  getHeader(name: string): HeaderValue;
  hasHeader(name: string): boolean;
  removeHeader(name: string): unknown;
  getHeaders(): Record<string, HeaderValue>;
}

/** The part of a FastifyRequest the header functions read. */
export interface HeaderSource {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed by @fastify/cookie on the full path; the lean path takes no request with a Cookie. */
  readonly cookies?: Record<string, string | undefined>;
}

/**
 * A response's status and headers as Fastify's reply keeps them (reply.js `header`), for the
 * lean path. No Set-Cookie: a GET never sets one (pipeline.ts removes it), and the lean path
 * answers GET and HEAD only.
 */
export class HeaderRecord implements HeaderTarget {
  statusCode = 200;
  readonly #headers: Record<string, string> = {};

  header(name: string, value: string): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.#headers[name.toLowerCase()];
  }

  hasHeader(name: string): boolean {
    return this.#headers[name.toLowerCase()] !== undefined;
  }

  removeHeader(name: string): this {
    delete this.#headers[name.toLowerCase()];
    return this;
  }

  /** The record itself, read-only (no copy per response: the header check and writeHead read it). */
  getHeaders(): Readonly<Record<string, string>> {
    return this.#headers;
  }
}

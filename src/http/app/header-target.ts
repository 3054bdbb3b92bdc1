// The parts of Fastify's request and reply the layer's header functions use: narrow types, so
// that those functions say what they touch and their unit tests need no whole reply.
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
  /** Parsed by @fastify/cookie in the first stage. */
  readonly cookies?: Record<string, string | undefined>;
}

// Absolute and root-relative URLs under the public base (docs/representations.md). Behind a trusted proxy
// the forwarded scheme and host replace the configured ones; the path prefix always stays.
import proxyAddr from 'proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { Links } from '../resource/types.ts';

export interface PublicBase {
  /** `https://library.example` */
  readonly origin: string;
  /** `/katalog` or '' */
  readonly basePath: string;
}

export function parseBase(baseUrl: string): PublicBase {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`baseUrl must be http(s): ${baseUrl}`);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

export function createLinks(base: PublicBase): Links {
  const relative = (path: string): string => base.basePath + (path.startsWith('/') ? path : '/' + path);
  return { relative, absolute: (path) => base.origin + relative(path) };
}

export type TrustFunction = (address: string, hop: number) => boolean;

export function compileTrust(trusted: readonly string[]): TrustFunction {
  return proxyAddr.compile([...trusted]);
}

// A forwarded host is copied into every XML and JSON link: accept only a plain host[:port].
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/**
 * The base a request's links are built from. Only when the direct peer is a trusted proxy do
 * `X-Forwarded-Proto` and `X-Forwarded-Host` count (the first value: what the client used).
 */
export function requestBase(base: PublicBase, raw: IncomingMessage, trust: TrustFunction): PublicBase {
  const peer = raw.socket?.remoteAddress;
  if (peer === undefined || !trust(peer, 0)) return base;
  const configured = new URL(base.origin);
  const proto = firstValue(raw.headers['x-forwarded-proto'])?.toLowerCase();
  const host = firstValue(raw.headers['x-forwarded-host']);
  const scheme = proto === 'http' || proto === 'https' ? proto : configured.protocol.slice(0, -1);
  const authority = host !== undefined && HOST.test(host) ? host.toLowerCase() : configured.host;
  return { origin: new URL(`${scheme}://${authority}`).origin, basePath: base.basePath };
}

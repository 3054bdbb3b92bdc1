// %u: the authenticated user. The session layer names it with setLogUser(); otherwise, like
// Apache, the user name of a Basic Authorization header counts, even before (or without) the
// password being accepted, so failed logins show the name that was tried.
import type { IncomingMessage } from 'node:http';
import { utf8Binary } from '../escape.ts';
import { rawHeaderValue } from './record.ts';

const kUser = Symbol.for('shelfmark.logUser');

type WithUser = IncomingMessage & { [kUser]?: string };

/** Records the user name (a normal JavaScript string) to log as %u for this request. */
export function setLogUser(raw: IncomingMessage, name: string): void {
  (raw as WithUser)[kUser] = utf8Binary(name);
}

/** The user name (binary) of a Basic credentials header value, or undefined. */
export function basicAuthUser(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^[Bb][Aa][Ss][Ii][Cc][ \t]+([A-Za-z0-9+/=_-]*)/.exec(authorization);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  return colon < 0 ? decoded : decoded.slice(0, colon);
}

/** %u for a request: setLogUser's name, else the Basic user name, else undefined (`-`). */
export function logUserOf(raw: IncomingMessage, rawHeaders: readonly string[]): string | undefined {
  return (raw as WithUser)[kUser] ?? basicAuthUser(rawHeaderValue(rawHeaders, 'authorization'));
}

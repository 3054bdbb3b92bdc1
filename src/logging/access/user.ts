// %u: the authenticated user. The application names it (createHttpServer's accessUser option,
// a normal JavaScript string); otherwise, like Apache, the user name of a Basic Authorization
// header counts, even before (or without) the password being accepted, so failed logins show
// the name that was tried.
import { utf8Binary } from '../escape.ts';
import { rawHeaderValue } from './record.ts';

/** The user name (binary) of a Basic credentials header value, or undefined. */
export function basicAuthUser(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^[Bb][Aa][Ss][Ii][Cc][ \t]+([A-Za-z0-9+/=_-]*)/.exec(authorization);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  return colon < 0 ? decoded : decoded.slice(0, colon);
}

/** %u (binary): the application's name for the user, else the Basic user name, else undefined (`-`). */
export function logUserOf(named: string | undefined, rawHeaders: readonly string[]): string | undefined {
  return named !== undefined ? utf8Binary(named) : basicAuthUser(rawHeaderValue(rawHeaders, 'authorization'));
}

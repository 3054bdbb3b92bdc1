// HTTP Basic credentials (RFC 7617): base64 of UTF-8 "user-id:password". The first colon
// separates, so a password may contain colons; a user-id may not. Malformed credentials
// authenticate nobody, but the name the client gave is still reported for the access log's
// %u, as Apache does (it sets r->user before checking the password; with no colon at all the
// whole decoded text is the user).

export type BasicCredentials =
  | { readonly kind: 'absent' }
  | { readonly kind: 'malformed'; readonly logUser: string | undefined }
  | { readonly kind: 'credentials'; readonly username: string; readonly password: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseBasic(header: string | undefined): BasicCredentials {
  if (header === undefined) return { kind: 'absent' };
  const scheme = /^\s*(\S+)/.exec(header)?.[1];
  if (scheme?.toLowerCase() !== 'basic') return { kind: 'absent' };
  const match = /^\s*\S+[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/.exec(header);
  if (!match?.[1] || match[1].replace(/=+$/, '').length % 4 === 1)
    return { kind: 'malformed', logUser: undefined };
  const bytes = Buffer.from(match[1], 'base64');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const shown = lossy.decode(bytes);
    return { kind: 'malformed', logUser: shown.split(':')[0] };
  }
  const colon = text.indexOf(':');
  if (colon === -1) return { kind: 'malformed', logUser: text };
  const username = text.slice(0, colon);
  const password = text.slice(colon + 1);
  if (CONTROL.test(username) || CONTROL.test(password)) return { kind: 'malformed', logUser: username };
  return { kind: 'credentials', username, password };
}

/** The challenge sent with a 401 to a client that tried Basic (never to anyone else). */
export const BASIC_CHALLENGE = 'Basic realm="Shelfmark", charset="UTF-8"';

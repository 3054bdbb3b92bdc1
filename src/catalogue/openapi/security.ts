// Security as the server enforces it (docs/access.md, ADR 0074): HTTP Basic or the session
// cookie; an unsafe request of a cookie session also needs the CSRF token header and a
// same-origin `Origin` (src/http/csrf). Who may, beyond signing in, is the operation's access.
import type { HandlerMethod } from '../../http/resource/types.ts';
import type { Access } from './paths.ts';

export function securitySchemes(sessionCookie: string): Record<string, unknown> {
  return {
    basic: {
      type: 'http',
      scheme: 'basic',
      description: 'HTTP Basic with the account’s user name and password (API clients).',
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookie,
      description: 'The session cookie `POST /sitzung` sets (browsers).',
    },
    csrf: {
      type: 'apiKey',
      in: 'header',
      name: 'X-CSRF-Token',
      description:
        'With the session cookie, every POST, PUT, PATCH and DELETE needs this header (the `csrfToken` of ' +
        '`GET /sitzung`; a form sends `_csrf`) and an `Origin` (or `Referer`) of this server; else 403 ' +
        '`SHELFMARK_CSRF_FAILED`. With Basic, a foreign `Origin` is refused and none is fine.',
    },
  };
}

export const ACCESS_TEXT: Record<Access, string> = {
  anyone: 'anyone; signed in, staff may see more.',
  owner: 'the person the URL names (signed in), or staff.',
  staff: 'staff only.',
};

/** Either scheme; cookie writes add the CSRF header. `{}`: no sign-in needed. */
export function securityOf(access: Access, method: HandlerMethod): Record<string, string[]>[] {
  const session: Record<string, string[]> = method === 'GET' ? { session: [] } : { session: [], csrf: [] };
  const signedIn = [{ basic: [] }, session];
  return access === 'anyone' ? [{}, ...signedIn] : signedIn;
}

// What Apache httpd's modules write to the error log when they refuse a request, written here
// for the same refusals, so that fail2ban's stock apache-* filters (and operators' greps and
// alerts) match Shelfmark's log exactly where they match Apache's (docs/decisions/0049):
//   wrong password (Basic or form)         [auth_basic:error] AH01617   mod_auth_basic
//   unknown or malformed user name         [auth_basic:error] AH01618
//   logged in, but not this resource (403) [authz_core:error] AH01631   AuthzSendForbiddenOnFailure
//   refused by the log-in limit (429)      [authz_core:error] AH01630   like `Require not ip`
//   no such resource (404)                 [core:info]        AH00128
// An anonymous 403 writes nothing: Apache answers an anonymous request for a protected resource
// with a 401 challenge and no error-log entry, and a reader who is simply not logged in yet
// must not count towards a ban. Messages are binary strings (one char per byte): the path is
// the client's bytes, percent-decoded like httpd's r->uri; user names are their UTF-8 bytes.
import type { IncomingMessage } from 'node:http';
import { requestContext, utf8Binary, type ErrorLog, type Level } from '../../logging/index.ts';

/** Debian's DocumentRoot: the file-system prefix httpd's r->filename would have. */
export const DEFAULT_DOCUMENT_ROOT = '/var/www/html';

/** httpd's r->uri: the path of the request target, percent-decoded to bytes, no query. */
export function requestUri(target: string): string {
  let path = target.split('?', 1)[0] ?? '';
  // absolute-form (`GET http://host/path`): httpd keeps only the path.
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface RefusalLog {
  /** A wrong password, or (unknownUser) a name no account has. `user` as the client typed it. */
  authenticationFailed(raw: IncomingMessage, target: string, user: string, unknownUser: boolean): void;
  /** A logged-in user refused a resource (403). */
  authorizationFailed(raw: IncomingMessage, target: string, user: string): void;
  /** An attempt the log-in limit refused (429). */
  clientDenied(raw: IncomingMessage, target: string): void;
  /** No resource at this URL (404). */
  notFound(raw: IncomingMessage, target: string): void;
}

export function createRefusalLog(errorLog: ErrorLog | undefined, documentRoot: string): RefusalLog {
  const root = documentRoot.replace(/\/+$/, '');
  const write = (level: Level, module: string, message: string, raw: IncomingMessage) => {
    if (!errorLog?.enabled(level)) return;
    errorLog.log(level, module, message, { ...requestContext(raw), binary: true });
  };
  // httpd's texts, with the AH numbers fail2ban's filters and operators' alerts know.
  return {
    authenticationFailed(raw, target, user, unknownUser) {
      const [name, uri] = [utf8Binary(user), requestUri(target)];
      const text = unknownUser
        ? `AH01618: user ${name} not found: ${uri}`
        : `AH01617: user ${name}: authentication failure for "${uri}": Password Mismatch`;
      write('error', 'auth_basic', text, raw);
    },
    authorizationFailed(raw, target, user) {
      // The trailing ": " is httpd's: its format string ends there (no reason follows).
      const text = `AH01631: user ${utf8Binary(user)}: authorization failure for "${requestUri(target)}": `;
      write('error', 'authz_core', text, raw);
    },
    clientDenied(raw, target) {
      const text = `AH01630: client denied by server configuration: ${root}${requestUri(target)}`;
      write('error', 'authz_core', text, raw);
    },
    notFound(raw, target) {
      write('info', 'core', `AH00128: File does not exist: ${root}${requestUri(target)}`, raw);
    },
  };
}

// How httpd reads a request target: ap_parse_uri (server/protocol.c) over apr_uri_parse
// (apr-util uri/apr_uri.c), the password mod_log_config hides in %r (log_request_line with
// apr_uri_unparse), and ap_normalize_path (server/util.c), whose refusal of a path that climbs
// above the root or holds a bad %-escape is AH10244 in ap_process_request_internal.

export interface ParsedTarget {
  /** apr_uri_parse succeeded (a port of digits only). */
  readonly ok: boolean;
  /** httpd's r->uri: the path, `*`/`/` when there is none, or the raw target when parsing failed. */
  readonly uri: string;
  /** parsed_uri.path: undefined when the target has none (`http://host`, CONNECT). */
  readonly path: string | undefined;
  readonly fragment: boolean;
  readonly userinfo: boolean;
  /** The absolute form's parts, for rebuilding it with a hidden password. */
  readonly scheme?: string;
  readonly user?: string;
  readonly password?: string;
  readonly host?: string;
  readonly port?: string;
  readonly rest?: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

export function parseTarget(target: string, connect: boolean): ParsedTarget {
  // httpd treats a leading `//` as a path, not an authority.
  let uri = target;
  while (uri.startsWith('//')) uri = uri.slice(1);
  if (connect) return { ok: true, uri, path: undefined, fragment: false, userinfo: false };
  const scheme = uri[0] === '/' ? null : SCHEME.exec(uri);
  if (!scheme) return withPath(uri, uri, {});
  const afterScheme = uri.slice(scheme[0].length);
  const hostEnd = afterScheme.search(/[/?#]/);
  const hostinfo = hostEnd < 0 ? afterScheme : afterScheme.slice(0, hostEnd);
  const rest = hostEnd < 0 ? '' : afterScheme.slice(hostEnd);
  // The last `@` ends the userinfo; its first `:` separates user and password.
  const at = hostinfo.lastIndexOf('@');
  const userinfo = at < 0 ? undefined : hostinfo.slice(0, at);
  const hostport = at < 0 ? hostinfo : hostinfo.slice(at + 1);
  const colonInUser = userinfo?.indexOf(':') ?? -1;
  const portAt = hostport.startsWith('[') ? hostport.indexOf(']:') + 1 : hostport.lastIndexOf(':');
  const port = portAt > 0 ? hostport.slice(portAt + 1) : undefined;
  const parts = {
    scheme: scheme[1]!,
    user: userinfo === undefined ? undefined : colonInUser < 0 ? userinfo : userinfo.slice(0, colonInUser),
    password: colonInUser < 0 ? undefined : userinfo!.slice(colonInUser + 1),
    host: portAt > 0 ? hostport.slice(0, portAt) : hostport,
    port,
    rest,
  };
  if (port !== undefined && port !== '' && !/^[0-9]+$/.test(port))
    return { ok: false, uri, path: undefined, fragment: false, userinfo: false };
  return withPath(uri, rest, parts);
}

function withPath(uri: string, pathAndMore: string, parts: Partial<ParsedTarget>): ParsedTarget {
  const end = pathAndMore.search(/[?#]/);
  const path = end < 0 ? pathAndMore : pathAndMore.slice(0, end);
  return {
    ok: true,
    uri: path !== '' ? path : '/',
    path: path === '' ? undefined : path,
    // The first `#`, in the path or the query, starts the fragment.
    fragment: pathAndMore.includes('#'),
    userinfo: parts.user !== undefined || parts.password !== undefined,
    ...parts,
  };
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * %r of a request whose target carries a password: mod_log_config logs
 * `method apr_uri_unparse(target) protocol`, the password written as XXXXXXXX.
 */
export function hidePassword(method: string, target: string, protocol: string): string | undefined {
  const t = parseTarget(target, method === 'CONNECT');
  if (t.password === undefined) return undefined;
  const port = t.port && t.port !== DEFAULT_PORTS[t.scheme!.toLowerCase()] ? `:${t.port}` : '';
  const unparsed = `${t.scheme}://${t.user}:XXXXXXXX@${t.host}${port}${t.rest}`;
  return `${method} ${unparsed}` + (protocol ? ` ${protocol}` : '');
}

// RFC 3986 unreserved characters (T_URI_UNRESERVED), which ap_normalize_path decodes.
const UNRESERVED = /^[A-Za-z0-9._~-]$/;
const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * ap_normalize_path with AP_NORMALIZE_NOT_ABOVE_ROOT | MERGE_SLASHES | DECODE_UNRESERVED (what
 * ap_process_request_internal asks for): false when a `..` segment (also `.%2e`, `%2e%2e`)
 * climbs above the root, a `%` is not followed by two hex digits, or the path is not absolute.
 */
export function normalizablePath(path: string): boolean {
  if (path[0] !== '/') return path === '*';
  // Without a dot segment or an escape there is nothing to refuse (most paths).
  if (!path.includes('/.') && !path.includes('%')) return true;
  const p = [...path];
  let ok = true;
  let l = 1;
  let w = 1;
  const slashOrEnd = (i: number) => i >= p.length || p[i] === '/';
  while (l < p.length) {
    if (p[l] === '%') {
      const hex = p.slice(l + 1, l + 3).join('');
      if (HEX.test(hex)) {
        const c = String.fromCharCode(parseInt(hex, 16));
        if (UNRESERVED.test(c)) {
          l += 2;
          p[l] = c;
        }
      } else ok = false;
    }
    if (w === 0 || p[w - 1] === '/') {
      if (p[l] === '/') {
        while (p[l] === '/') l++;
        continue;
      }
      if (p[l] === '.') {
        if (slashOrEnd(l + 1)) {
          l += l + 1 < p.length ? 2 : 1;
          continue;
        }
        let n = l + 1;
        if (
          (p[n] === '.' || (p[n] === '%' && p[++n] === '2' && (p[++n] === 'e' || p[n] === 'E'))) &&
          slashOrEnd(n + 1)
        ) {
          if (w > 1) {
            do w--;
            while (w && p[w - 1] !== '/');
          } else ok = false;
          l = n + 1 < p.length ? n + 2 : n + 1;
          continue;
        }
      }
    }
    p[w++] = p[l++]!;
  }
  return ok;
}

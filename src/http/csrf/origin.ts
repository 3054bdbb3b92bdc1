// Where did this unsafe request come from? Evidence in order of trust (docs/access.md):
//   1. Sec-Fetch-Site (set by the browser, unforgeable by pages): same-origin / none → ok,
//      same-site / cross-site → refused. `same-site` is refused too: a sibling subdomain is
//      another application.
//   2. Origin, compared with the configured public origin(s). `Origin: null` → refused.
//   3. Referer's origin, same comparison (old browsers send no Origin on same-origin POSTs).
//   4. No evidence at all: `strict` (cookie-authenticated requests, login) → refused, because
//      every browser that can hold our cookie sends at least one of these; `lenient` (HTTP
//      Basic, i.e. API clients like curl that send none of them) → ok.
export type OriginMode = 'strict' | 'lenient';
export type OriginVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface OriginHeaders {
  readonly 'sec-fetch-site'?: string | string[] | undefined;
  readonly origin?: string | string[] | undefined;
  readonly referer?: string | string[] | undefined;
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)?.trim();

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** `allowed`: the public origin(s), e.g. ['https://library.example'] (origin only, no path). */
export function checkOrigin(
  headers: OriginHeaders,
  allowed: readonly string[],
  mode: OriginMode,
): OriginVerdict {
  const fetchSite = one(headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite === 'same-origin' || fetchSite === 'none') return { ok: true };
  if (fetchSite === 'same-site' || fetchSite === 'cross-site') {
    return { ok: false, reason: `the browser reports a ${fetchSite} request` };
  }
  const normalised = allowed.map((o) => originOf(o) ?? o);
  const origin = one(headers.origin);
  if (origin !== undefined && origin !== '') {
    const o = originOf(origin);
    return o !== null && normalised.includes(o)
      ? { ok: true }
      : { ok: false, reason: `the request comes from ${origin}` };
  }
  const referer = one(headers.referer);
  if (referer !== undefined && referer !== '') {
    const o = originOf(referer);
    return o !== null && normalised.includes(o)
      ? { ok: true }
      : { ok: false, reason: `the request comes from a page on ${o ?? 'an unknown origin'}` };
  }
  return mode === 'lenient'
    ? { ok: true }
    : { ok: false, reason: 'the request says neither Origin nor Referer' };
}

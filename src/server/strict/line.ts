// httpd's ap_rgetline_core (server/protocol.c) with AP_GETLINE_CRLF, which Strict sets for the
// request line and every header line: a line must end in CRLF (a bare LF fails it with
// APR_EINVAL, and the text httpd keeps then still holds the LF), and a NUL byte anywhere in
// the line fails it too (the kept text ends at the NUL, PR 43039).

export type LineRead =
  /** A line ended by CRLF; `text` without it; `next` is where the following line starts. */
  | { readonly kind: 'line'; readonly text: string; readonly next: number }
  /** The line failed (APR_EINVAL): `text` is what httpd holds of it. */
  | { readonly kind: 'invalid'; readonly text: string; readonly next: number }
  /** Longer than the limit before its LF (APR_ENOSPC). */
  | { readonly kind: 'too-long' }
  /** No LF yet. */
  | { readonly kind: 'incomplete' };

/**
 * Reads the line starting at `pos` of `text` (a binary string). `limit`: LimitRequestLine or
 * LimitRequestFieldSize (8190); a longer line is left to the limits' own refusals (414, AH00561).
 */
export function readLine(text: string, pos: number, limit: number): LineRead {
  const lf = text.indexOf('\n', pos);
  if (lf < 0) return text.length - pos > limit + 1 ? { kind: 'too-long' } : { kind: 'incomplete' };
  const withLf = text.slice(pos, lf + 1);
  const crlf = withLf.length >= 2 && withLf[withLf.length - 2] === '\r';
  if (withLf.length - (crlf ? 2 : 1) > limit) return { kind: 'too-long' };
  const nul = withLf.indexOf('\0');
  if (!crlf) return { kind: 'invalid', text: nul < 0 ? withLf : withLf.slice(0, nul), next: lf + 1 };
  const line = withLf.slice(0, -2);
  if (nul >= 0) return { kind: 'invalid', text: withLf.slice(0, nul), next: lf + 1 };
  return { kind: 'line', text: line, next: lf + 1 };
}

// Which content-coding to send (RFC 9110 §12.5.3): brotli or gzip when the client accepts it,
// else none. Pure; the header is the client's, so only its first entries count (as for Accept).

export type Encoding = 'br' | 'gzip';

/** A browser sends four or five codings; more are not read (a long header costs nothing). */
const MAX_ENTRIES = 16;

function qOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=').map((s) => s.trim());
    if (name?.toLowerCase() === 'q') {
      const q = Number(value);
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

/**
 * The coding to use for `header`: the accepted one with the higher q, brotli on a tie (smaller
 * for text); `*` stands for codings not named; `x-gzip` is gzip (RFC 9110 §8.4.1.3). No header,
 * or nothing acceptable: null (identity — a body is always sent, never 406).
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (header === undefined) return null;
  const named = new Map<string, number>();
  for (const entry of header.split(',', MAX_ENTRIES)) {
    const [coding = '', ...parameters] = entry.split(';');
    const name = coding.trim().toLowerCase();
    if (name === '') continue;
    const key = name === 'x-gzip' ? 'gzip' : name;
    if (!named.has(key)) named.set(key, qOf(parameters));
  }
  const star = named.get('*');
  const q = (coding: Encoding) => named.get(coding) ?? star ?? 0;
  const br = q('br');
  const gzip = q('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

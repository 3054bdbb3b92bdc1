// A URL bound for a response header (Location, Content-Location, Link). Node refuses header
// values outside Latin-1 (and writes Latin-1 ones as raw bytes, which no client should have to
// guess at), so every character outside visible ASCII (and `<>"`) is percent-encoded as UTF-8, the way
// browsers and Rails' redirect_to send a path like `/€` (RFC 3986 §2.1, RFC 9110 §10.2.2).
// Existing `%XX` escapes stay as they are; a lone surrogate becomes U+FFFD.

// `<`, `>` and `"` are visible but never part of a URI (RFC 3986), and would end a Link value.
const UNSAFE = /[^\x21-\x7e]|[<>"]/u;
const EACH_UNSAFE = /[^\x21-\x7e]|[<>"]/gu;

function encodeOne(char: string): string {
  const code = char.codePointAt(0) ?? 0xfffd;
  const safe = code >= 0xd800 && code <= 0xdfff ? '\ufffd' : char;
  return Array.from(
    Buffer.from(safe, 'utf8'),
    (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
}

export function headerUrl(url: string): string {
  if (!UNSAFE.test(url)) return url;
  return url.replace(EACH_UNSAFE, encodeOne);
}

// Apache's ap_escape_logitem, on raw bytes. Input strings are "binary strings": one JS char per
// byte (latin1), which is what Node's HTTP parser hands us for the request target and header
// values. Every output is printable ASCII, so a log line can never be split or forged.

const HEX = '0123456789abcdef';
const NAMED: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 13: '\\r' };

// Printable ASCII except `"` and `\`: nothing to do (the common case, checked with one regex).
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const PLAIN_QUOTE_OK = /^[\x20-\x5b\x5d-\x7e]*$/;

function escapeSlow(bin: string, escapeQuote: boolean): string {
  let out = '';
  for (let i = 0; i < bin.length; i++) {
    const c = bin.charCodeAt(i) & 0xff;
    if (c === 0x22) out += escapeQuote ? '\\"' : '"';
    else if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c < 0x7f) out += bin[i];
    else out += NAMED[c] ?? '\\x' + HEX[c >> 4] + HEX[c & 15];
  }
  return out;
}

/** Escapes a binary string exactly like Apache's access log (`"` → `\"`). */
export function escapeLogItem(bin: string): string {
  return PLAIN.test(bin) ? bin : escapeSlow(bin, true);
}

/** Escapes a binary string like Apache's error log: the same, except `"` stays as it is. */
export function escapeErrorItem(bin: string): string {
  return PLAIN_QUOTE_OK.test(bin) ? bin : escapeSlow(bin, false);
}

/** A JavaScript (Unicode) string as a binary string of its UTF-8 bytes. */
export function utf8Binary(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

// %t: `[dd/Mon/yyyy:HH:MM:SS ±hhmm]` in server local time with its (DST-aware) offset and English
// month names whatever the locale. Formatting is cached per second, as Apache does.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number): string => (n < 10 ? '0' + n : String(n));

export function utcOffset(d: Date): string {
  const off = -d.getTimezoneOffset();
  const abs = Math.abs(off);
  return (off < 0 ? '-' : '+') + pad2(Math.floor(abs / 60)) + pad2(abs % 60);
}

function formatUncached(ms: number): string {
  const d = new Date(ms);
  return (
    '[' +
    pad2(d.getDate()) +
    '/' +
    MONTHS[d.getMonth()] +
    '/' +
    d.getFullYear() +
    ':' +
    pad2(d.getHours()) +
    ':' +
    pad2(d.getMinutes()) +
    ':' +
    pad2(d.getSeconds()) +
    ' ' +
    utcOffset(d) +
    ']'
  );
}

let cachedSecond = -1;
let cachedText = '';

/** The Apache `%t` text for an epoch time in milliseconds. */
export function apacheTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedText = formatUncached(ms);
    cachedSecond = second;
  }
  return cachedText;
}

export { MONTHS };

// Splits a combined-format line into its fields (the user may contain spaces).
const COMBINED = /^(\S+) (\S+) (.*?) \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\S+) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"$/;

export interface CombinedFields {
  h: string;
  l: string;
  u: string;
  t: string;
  r: string;
  s: string;
  b: string;
  referer: string;
  ua: string;
}

export function parseCombined(line: string): CombinedFields | undefined {
  const m = COMBINED.exec(line);
  if (!m) return undefined;
  const [, h, l, u, t, r, s, b, referer, ua] = m as unknown as string[];
  return { h: h!, l: l!, u: u!, t: t!, r: r!, s: s!, b: b!, referer: referer!, ua: ua! };
}

export const TIME_SHAPE = /^\d{2}\/(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}$/;

/** Undoes ap_escape_logitem (for property tests). */
export function unescapeLogItem(s: string): string {
  return s.replace(/\\(x[0-9a-f]{2}|[\\"btnvr])/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ '\\': '\\', '"': '"', b: '\b', t: '\t', n: '\n', v: '\v', r: '\r' } as Record<string, string>)[e]!;
  });
}

// One error-log line as JSON: the shape of the JSON representation's items and of every SSE
// `entry` event's data. Control characters a foreign writer may have left in the file are
// written as `\xhh` (they are not legal in XML 1.0 and confuse terminals).
import type { ErrorLogLine } from '../../logging/index.ts';

// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

export type EntryJson =
  | {
      readonly zeit: string;
      readonly modul: string;
      readonly stufe: string;
      readonly pid: number;
      readonly tid?: number;
      readonly quelle?: string;
      readonly systemfehler?: string;
      readonly client?: string;
      readonly meldung: string;
      readonly referer?: string;
    }
  | { readonly zeile: string };

export function entryJson(line: ErrorLogLine): EntryJson {
  if ('raw' in line) return { zeile: printable(line.raw) };
  return {
    zeit: line.time,
    modul: printable(line.module),
    stufe: line.level,
    pid: line.pid,
    ...(line.tid !== undefined && { tid: line.tid }),
    ...(line.source !== undefined && { quelle: printable(line.source) }),
    ...(line.osError !== undefined && { systemfehler: printable(line.osError) }),
    ...(line.client !== undefined && { client: printable(line.client) }),
    meldung: printable(line.message),
    ...(line.referer !== undefined && { referer: printable(line.referer) }),
  };
}

// What displayErrors shows about an unexpected error (design §8): class, message, the source
// file and line of the innermost application frame, the stack and a few lines of source.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ExceptionDetails {
  readonly class: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly stack: string;
  /** Numbered source lines around `line`, the failing one marked with `>`. */
  readonly source: string;
}

// `    at fn (file:///app/src/x.ts:12:5)` or `    at /app/src/x.ts:12:5`
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/;

/** The first stack frame outside node_modules and Node's internals. */
export function sourceLocation(stack: string): { file: string; line: number } | null {
  let fallback: { file: string; line: number } | null = null;
  for (const text of stack.split('\n')) {
    const match = FRAME.exec(text);
    if (!match?.[1] || !match[2]) continue;
    const file = match[1].startsWith('file://') ? fileURLToPath(match[1]) : match[1];
    const location = { file, line: Number(match[2]) };
    if (!file.includes('/node_modules/')) return location;
    fallback ??= location;
  }
  return fallback;
}

export function sourceExcerpt(file: string, line: number, around = 3): string {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return '';
  }
  const from = Math.max(1, line - around);
  const to = Math.min(lines.length, line + around);
  const width = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
  }
  return out.join('\n');
}

export function exceptionDetails(error: unknown): ExceptionDetails {
  const isError = error instanceof Error;
  const stack = isError ? (error.stack ?? '') : '';
  const location = sourceLocation(stack);
  return {
    class: isError ? error.constructor.name || error.name : typeof error,
    message: isError ? error.message : String(error),
    file: location?.file ?? '',
    line: location?.line ?? 0,
    stack,
    source: location ? sourceExcerpt(location.file, location.line) : '',
  };
}

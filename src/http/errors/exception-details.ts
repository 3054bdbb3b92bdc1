// What displayErrors shows about an unexpected error (docs/logs.md): class, message, the source
// file and line, the stack and a few lines of source. Which frame counts as "where it
// happened" is the logging module's rule (describeError), so the page and the error-log
// entry always name the same file and line.
import { describeError, type SourceExcerpt } from '../../logging/error/index.ts';

export interface ExceptionDetails {
  readonly class: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly stack: string;
  /** Numbered source lines around `line`, the failing one marked with `>`. */
  readonly source: string;
}

/** `>  12 | throw …` style: numbered lines, the error line marked. */
function numbered(excerpt: SourceExcerpt | undefined): string {
  if (!excerpt) return '';
  const last = excerpt.firstLine + excerpt.lines.length - 1;
  const width = String(last).length;
  return excerpt.lines
    .map((text, i) => {
      const n = excerpt.firstLine + i;
      return `${n === excerpt.errorLine ? '>' : ' '} ${String(n).padStart(width)} | ${text}`;
    })
    .join('\n');
}

export function exceptionDetails(error: unknown): ExceptionDetails {
  const described = describeError(error, { excerptRadius: 3 });
  return {
    class: described.className,
    message: described.message,
    file: described.file ?? '',
    line: described.line ?? 0,
    // The error's own text (first line `Class: message`), as a developer expects to see it.
    stack: error instanceof Error ? (error.stack ?? '') : '',
    source: numbered(described.sourceExcerpt),
  };
}

// What an uncaught error in application code was and where it happened: the first stack frame
// in the project's own code, i.e. under the repository root and outside node_modules (Node runs
// the .ts files directly, so lines are the .ts lines). The one stack parser of the project:
// the error-log entry, the supervisor's "Uncaught" entry and the displayErrors page
// (src/http/errors/exception-details.ts) all use it, so they name the same file and line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StackFrame {
  readonly fn: string | undefined;
  /** Absolute path (file: URLs converted), or the raw location such as `node:internal/…`. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface SourceExcerpt {
  readonly firstLine: number;
  readonly lines: readonly string[];
  readonly errorLine: number;
}

export interface ErrorDescription {
  readonly className: string;
  readonly message: string;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** The frames, best first as V8 lists them. */
  readonly frames: readonly StackFrame[];
  /** The stack as text (`at fn (/abs/file.ts:1:2)` lines, paths instead of file: URLs). */
  readonly stack: string;
  readonly sourceExcerpt?: SourceExcerpt;
}

export interface DescribeOptions {
  /** Project root; default: the repository this module lives in (src/ and test/ alike). */
  readonly srcRoot?: string;
  /** Lines of source to show around the error line (0 = no excerpt). */
  readonly excerptRadius?: number;
}

const DEFAULT_SRC = fileURLToPath(new URL('../../../', import.meta.url));
const FRAME = /^\s*at (?:(.+?) \()?(?:async )?(.+?):(\d+):(\d+)\)?$/;

function toPath(loc: string): string {
  if (loc.startsWith('file://')) {
    try {
      return fileURLToPath(loc);
    } catch {
      return loc;
    }
  }
  return loc;
}

export function parseStack(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const text of stack.split('\n')) {
    const m = FRAME.exec(text);
    if (!m) continue;
    frames.push({ fn: m[1], file: toPath(m[2]!), line: Number(m[3]), column: Number(m[4]) });
  }
  return frames;
}

function excerpt(file: string, line: number, radius: number): SourceExcerpt | undefined {
  try {
    const all = fs.readFileSync(file, 'utf8').split('\n');
    const first = Math.max(1, line - radius);
    const last = Math.min(all.length, line + radius);
    return { firstLine: first, lines: all.slice(first - 1, last), errorLine: line };
  } catch {
    return undefined;
  }
}

// Node decorates an error in a file it could not load — a SyntaxError from its TypeScript
// stripping or its parser, a missing named export — with the file and line as the stack's
// first line (`/abs/x.ts:3` or `file:///abs/x.ts:3`), above the offending source.
const LOAD_HEADER = /^(file:\/\/\S+|\/\S*?):(\d+)$/;
const NOT_FOUND = /^Cannot find (?:module|package) '([^']+)' imported from (.+)$/;

/** Where a module that failed to load went wrong: its own first stack line, or the importer. */
function loadLocation(err: Error, rawStack: string): { file: string; line: number } | undefined {
  const header = LOAD_HEADER.exec(rawStack.split('\n', 1)[0] ?? '');
  if (header) return { file: toPath(header[1]!), line: Number(header[2]) };
  const missing = (err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && NOT_FOUND.exec(err.message);
  if (!missing) return undefined;
  // The importing file names the missing one by a relative specifier; its line is the import.
  const importer = toPath(missing[2]!);
  const name = path.basename(missing[1]!);
  try {
    const lines = fs.readFileSync(importer, 'utf8').split('\n');
    const at = lines.findIndex((l) => /\bimport\b|\bfrom\b/.test(l) && l.includes(name));
    const from = at >= 0 ? at : lines.findIndex((l) => l.includes(name));
    return { file: importer, line: from >= 0 ? from + 1 : 1 };
  } catch {
    return { file: importer, line: 1 };
  }
}

export function describeError(err: unknown, options: DescribeOptions = {}): ErrorDescription {
  const srcRoot = path.resolve(options.srcRoot ?? DEFAULT_SRC) + path.sep;
  const isError = err instanceof Error;
  const className = isError ? err.constructor?.name || err.name : typeof err;
  const message = isError ? err.message : String(err);
  const rawStack = isError && typeof err.stack === 'string' ? err.stack : '';
  const frames = parseStack(rawStack);
  const inProject = (f: StackFrame) =>
    f.file.startsWith(srcRoot) && !f.file.includes(`${path.sep}node_modules${path.sep}`);
  const loaded = isError ? loadLocation(err, rawStack) : undefined;
  const best: (Pick<StackFrame, 'file' | 'line'> & { column?: number }) | undefined =
    loaded ?? frames.find(inProject) ?? frames.find((f) => path.isAbsolute(f.file));
  const stack = rawStack
    .split('\n')
    .filter((l) => FRAME.test(l))
    .map((l) => l.trim().replace(/file:\/\/[^\s):]+/g, (u) => toPath(u)))
    .join('\n');
  const radius = options.excerptRadius ?? 0;
  const sourceExcerpt = best && radius > 0 ? excerpt(best.file, best.line, radius) : undefined;
  return {
    className,
    message,
    file: best?.file,
    line: best?.line,
    column: best?.column,
    frames,
    stack,
    ...(sourceExcerpt ? { sourceExcerpt } : {}),
  };
}

/** The error-log message, modelled on PHP's: `TypeError: msg in /abs/x.ts on line 42\nStack trace:\n#0 …`. */
export function errorLogMessage(d: ErrorDescription): string {
  const where = d.file === undefined ? '' : ` in ${d.file} on line ${d.line}`;
  const trace = d.stack
    .split('\n')
    .filter(Boolean)
    .map((l, i) => `#${i} ${l.replace(/^at /, '')}`);
  return `${d.className}: ${d.message}${where}` + (trace.length ? `\nStack trace:\n${trace.join('\n')}` : '');
}

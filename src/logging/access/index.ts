// The access log: one Apache-format line per request, written to a sink.
import { compileLogFormat, type LineFormatter } from './compile.ts';
import type { AccessRecord } from './record.ts';
import type { LogSink } from '../sink/sink.ts';

export { compileLogFormat, NAMED_FORMATS, type LineFormatter } from './compile.ts';
export { rawHeaderValue, type AccessRecord } from './record.ts';
export { basicAuthUser, logUserOf } from './user.ts';
export { apacheTime } from './time.ts';

export interface AccessLog {
  log(record: AccessRecord): void;
  /** Runs `then` once the lines logged so far are in the kernel (LogSink.afterWritten). */
  afterWritten(then: () => void): void;
}

/** An access log writing `format` (`combined` by default) to `sink`. */
export function createAccessLog(sink: LogSink, format: string = 'combined'): AccessLog {
  const line: LineFormatter = compileLogFormat(format);
  return { log: (record) => sink.write(line(record)), afterWritten: (then) => sink.afterWritten(then) };
}

// `/protokoll/fehler`: the last entries of the error log, for staff (docs/logs.md).
//   ?anzahl=N  how many (default 100, at most 1000; a bad value falls back to the default)
//   ?stufe=L   only entries at or above level L (an unknown level → 400)
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { isLevel, readErrorLogTail, type Level } from '../../logging/index.ts';
import { HttpError } from '../shared/index.ts';
import { ERROR_LOG_PATH, requireStaff } from './access.ts';
import { DEFAULT_COUNT, errorLogPath, errorLogView, MAX_COUNT, type ErrorLogModel } from './view.ts';

export interface ErrorLogResourceOptions {
  /** The error log's file, or `-` when it goes to stderr. */
  readonly errorLogPath: string;
}

export function parseCount(raw: string | null): number {
  const n = raw !== null && /^[0-9]{1,6}$/.test(raw) ? Number(raw) : DEFAULT_COUNT;
  return Math.min(Math.max(n, 1), MAX_COUNT);
}

export function parseLevel(raw: string | null): Level | null {
  if (raw === null || raw === '') return null;
  if (!isLevel(raw)) {
    throw new HttpError('SHELFMARK_BAD_REQUEST', {
      detail: 'stufe must be one of emerg, alert, crit, error, warn, notice, info, debug, trace1 … trace8.',
    });
  }
  return raw;
}

export function errorLogResource(opts: ErrorLogResourceOptions): ResourceDefinition {
  return {
    name: 'error-log',
    path: ERROR_LOG_PATH,
    methods: {
      GET: async (ctx) => {
        requireStaff(ctx.user);
        const count = parseCount(ctx.query.get('anzahl'));
        const minLevel = parseLevel(ctx.query.get('stufe'));
        const toStderr = opts.errorLogPath === '-';
        const tail = toStderr
          ? { entries: [], truncated: false }
          : await readErrorLogTail(opts.errorLogPath, { count, ...(minLevel && { minLevel }) });
        const model: ErrorLogModel = {
          entries: tail.entries,
          count,
          minLevel,
          toStderr,
          truncated: tail.truncated,
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: errorLogView,
            canonicalPath: errorLogPath(count, minLevel),
            schema: 'error-log',
          },
        };
      },
    },
  };
}

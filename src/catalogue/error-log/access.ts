// The error log is for staff only (docs/logs.md): anyone else, logged in or not, gets 403.
import type { Principal } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';
import { routeOf } from '../registry/index.ts';

export const ERROR_LOG_PATH = routeOf('ErrorLog');
/** The live stream: a plain route (text/event-stream is none of the layer's three formats). */
export const LIVE_PATH = '/protokoll/fehler/live';

/** Throws 403 unless `user` is staff; used by the resource and by the live route alike. */
export function requireStaff(user: Principal | null): asserts user is Principal {
  if (user?.role === 'staff') return;
  throw new HttpError('SHELFMARK_FORBIDDEN', {
    detail:
      user === null ? 'The error log is for staff only; please log in.' : 'The error log is for staff only.',
    localDetail: {
      de: 'Das Fehlerprotokoll ist nur für das Personal.',
      en: 'The error log is for staff only.',
    },
  });
}

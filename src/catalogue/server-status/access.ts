// /server-status is for staff only, as Apache's is usually kept to the admins (`Require`).
import type { Principal } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';
import { routeOf } from '../registry/index.ts';

export const SERVER_STATUS_PATH = routeOf('ServerStatus');

/** Throws 403 unless `user` is staff (anonymous clients too get 403 with the log-in form). */
export function requireStaff(user: Principal | null): asserts user is Principal {
  if (user?.role === 'staff') return;
  throw new HttpError('SHELFMARK_FORBIDDEN', {
    detail:
      user === null
        ? 'The server status is for staff only; please log in.'
        : 'The server status is for staff only.',
    localDetail: {
      de: 'Der Serverstatus ist nur für das Personal.',
      en: 'The server status is for staff only.',
    },
  });
}

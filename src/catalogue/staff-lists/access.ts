// The staff lists are for staff only (docs/access.md): anyone else gets 403, signed in or not
// (an anonymous API client is asked to authenticate by the layer).
import type { RequestContext } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';

export function requireStaff(ctx: RequestContext, list: { de: string; en: string }): void {
  if (ctx.user?.role === 'staff') return;
  throw new HttpError('SHELFMARK_FORBIDDEN', {
    detail: `The list of ${list.en} is for staff only.`,
    localDetail: {
      de: `Die Liste „${list.de}“ ist nur für das Personal.`,
      en: `The list of ${list.en} is for staff only.`,
    },
  });
}

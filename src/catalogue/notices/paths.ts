// The notices' readable paths (ADR 0092), from the registry: everyone's for staff, and a
// person's beside their holds and account. Their own file so the layout and the account page
// can link them.
import { pathBuilder, routeOf } from '../registry/index.ts';

export const NOTICES_PATH = routeOf('Notices');
export const personNoticesPath: (slug: string) => string = pathBuilder('PersonNotices');

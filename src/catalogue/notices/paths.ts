// The notices' readable paths (ADR 0092): everyone's for staff, and a person's beside their
// holds and account. Their own file so the layout and the account page can link them.
import { personPath } from '../shared/urls.ts';

export const NOTICES_PATH = '/benachrichtigungen';
export const personNoticesPath = (slug: string): string => `${personPath(slug)}/benachrichtigungen`;

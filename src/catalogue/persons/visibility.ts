// Who may see a person (docs/access.md, ADR 0062): anyone while the person is public — has a
// live work, as every author does — and otherwise only the person themself and staff. To
// anyone else a private person does not exist: their URLs (the person, the life dates) answer
// 404 with the body of an unknown slug, also once deleted (no 410 that would tell it existed).
import type { Principal } from '../../http/resource/types.ts';
import type { Lookup } from '../model.ts';

/** What the check needs of a looked-up record: its person's id and whether it is public. */
export interface Visible {
  readonly id: number;
  readonly isPublic: boolean;
}

/** Staff, or the person `personId` themself. */
export function isSelfOrStaff(user: Principal | null, personId: number): boolean {
  return user !== null && (user.role === 'staff' || user.id === personId);
}

/** The lookup as `user` may see it: a private person they may not see becomes null (404). */
export function visibleTo<T extends Visible>(lookup: Lookup<T>, user: Principal | null): Lookup<T> {
  if (lookup === null || 'movedTo' in lookup) return lookup;
  const privateTo =
    'found' in lookup ? (lookup.found.isPublic ? undefined : lookup.found.id) : lookup.privateTo;
  return privateTo === undefined || isSelfOrStaff(user, privateTo) ? lookup : null;
}

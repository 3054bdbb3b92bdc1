// A notice's state as the URL space names it (`?status=`, German like the rest, ADR 0092):
// planned (pending), sent, failed, and obsolete (its loan or hold changed before it was sent).
import type { NoticeState } from '../tables.ts';

export const STATUS_NAMES = ['geplant', 'gesendet', 'fehlgeschlagen', 'entfallen'] as const;
export type StatusName = (typeof STATUS_NAMES)[number];

const BY_STATE: Record<NoticeState, StatusName> = {
  pending: 'geplant',
  sent: 'gesendet',
  failed: 'fehlgeschlagen',
  obsolete: 'entfallen',
};

export const statusName = (state: NoticeState): StatusName => BY_STATE[state];

/** The state a `status` value names; undefined: not one. */
export function stateOf(name: string): NoticeState | undefined {
  const found = Object.entries(BY_STATE).find(([, n]) => n === name);
  return found?.[0] as NoticeState | undefined;
}

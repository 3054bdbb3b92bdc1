// A work is found by its title and by its persons' names, so its search_text holds both and
// must be rewritten when either changes. Built in code: string aggregation differs per engine.
import type { Kysely } from 'kysely';
import { searchText } from '../../storage/index.ts';
import type { DB } from '../tables.ts';

/** Rewrites search_text of one work, or of every work of one person (after a rename). */
export async function refreshWorkSearchText(
  db: Kysely<DB>,
  which: { workId: number } | { personId: number },
): Promise<void> {
  const workIds =
    'workId' in which
      ? [which.workId]
      : (
          await db
            .selectFrom('person_work')
            .select('work_id')
            .where('person_id', '=', which.personId)
            .execute()
        ).map((r) => r.work_id);
  for (const workId of workIds) {
    const work = await db.selectFrom('works').select('titel').where('id', '=', workId).executeTakeFirst();
    if (!work) continue;
    const names = await db
      .selectFrom('person_work')
      .innerJoin('persons', 'persons.id', 'person_work.person_id')
      .select(['persons.vorname', 'persons.nachname'])
      .where('person_work.work_id', '=', workId)
      .orderBy('person_work.position')
      .execute();
    const text = workSearchText(work.titel, names);
    await db.updateTable('works').set({ search_text: text }).where('id', '=', workId).execute();
  }
}

export function workSearchText(
  titel: string,
  persons: readonly { vorname: string; nachname: string }[],
): string {
  return searchText(titel, ...persons.flatMap((p) => [p.vorname, p.nachname]));
}

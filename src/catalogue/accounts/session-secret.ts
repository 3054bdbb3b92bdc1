// The key for session cookies and CSRF tokens when none is configured: generated once and kept
// in the database (`server_settings`), so every worker and every machine on one database signs
// and accepts the same cookies without SHELFMARK_SECRET (docs/decisions/0032). The first
// process to start inserts its candidate; a concurrent one's insert does nothing and both read
// the stored value. A secret an older version wrote into the data directory is the candidate,
// so existing sessions survive the upgrade.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';

export const SESSION_SECRET_SETTING = 'session_secret';

export async function storedSessionSecret(db: Kysely<DB>, candidate: () => string): Promise<string> {
  const read = () =>
    db
      .selectFrom('server_settings')
      .select('value')
      .where('name', '=', SESSION_SECRET_SETTING)
      .executeTakeFirst();
  const existing = await read();
  if (existing) return existing.value;
  await db
    .insertInto('server_settings')
    .values({ name: SESSION_SECRET_SETTING, value: candidate() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await read();
  if (!stored) throw new Error('the session secret could not be stored');
  return stored.value;
}

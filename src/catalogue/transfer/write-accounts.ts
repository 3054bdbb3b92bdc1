// Accounts of one batch, keyed by username. Files carry no password hashes: a new account gets
// a password hash that matches no password (`user passwd NAME` sets one), a known account keeps
// its own; only the role is written. A person's page shows its username, so a new account (or
// one whose role changed) is a new version of its person unless this batch created the person.
import { sql } from 'kysely';
import { nextUpdatedAt } from '../shared/index.ts';
import { lastPerKey, selectIn, setVersions, type Batch, type Line } from './batch.ts';
import type { AccountRecord } from './records.ts';
import { isLastStaff, defaultCardNumber } from '../accounts/index.ts';

/** The person whose account has this card number (undefined: nobody), as the batch sees it. */
async function cardHolder(batch: Batch, card: string): Promise<number | undefined> {
  const row = await batch.trx
    .selectFrom('accounts')
    .select('person_id')
    .where('card_number', '=', card)
    .executeTakeFirst();
  return row?.person_id;
}

/** Not a hash verifyPassword accepts: no password logs in until one is set. */
export const NO_PASSWORD = '!imported';

export async function writeAccounts(batch: Batch, all: readonly Line<AccountRecord>[]): Promise<void> {
  if (all.length === 0) return;
  const { trx, at, outcomes } = batch;
  const lines = lastPerKey(batch, all, (r) => r.username);
  const persons = new Map(
    (
      await selectIn([...new Set(lines.map((l) => l.record.person))], (part) =>
        trx
          .selectFrom('persons')
          .select(['id', 'slug', 'updated_at'])
          .where('slug', 'in', part)
          .where('deleted_at', 'is', null)
          .execute(),
      )
    ).map((p) => [p.slug, p]),
  );
  const byName = new Map(
    (
      await selectIn(
        lines.map((l) => l.record.username),
        (part) =>
          trx
            .selectFrom('accounts')
            .select(['person_id', 'username', 'role', 'card_number'])
            .where('username', 'in', part)
            .execute(),
      )
    ).map((a) => [a.username, a]),
  );
  const byPerson = new Map(
    (
      await selectIn(
        [...persons.values()].map((p) => p.id),
        (part) =>
          trx
            .selectFrom('accounts')
            .select(['person_id', 'username'])
            .where('person_id', 'in', part)
            .execute(),
      )
    ).map((a) => [a.person_id, a.username]),
  );
  const touched = new Map<number, string>();
  for (const line of lines) {
    const r = line.record;
    const person = persons.get(r.person);
    if (!person) {
      outcomes.set(line.line, { reason: `person: no live person ${r.person}` });
      continue;
    }
    const row = byName.get(r.username);
    if (row && row.person_id !== person.id) {
      outcomes.set(line.line, { reason: `username ${r.username}: the account of another person` });
      continue;
    }
    const other = byPerson.get(person.id);
    if (!row && other !== undefined) {
      outcomes.set(line.line, { reason: `person ${r.person}: already has the account ${other}` });
      continue;
    }
    const card = r.ausweis ?? (row ? row.card_number : defaultCardNumber(person.id));
    const cardOwner = card === null ? undefined : await cardHolder(batch, card);
    if (cardOwner !== undefined && cardOwner !== person.id) {
      outcomes.set(line.line, { reason: `ausweis ${card}: the card of another account` });
      continue;
    }
    if (row && row.role === r.rolle && row.card_number === card) {
      outcomes.set(line.line, 'unchanged');
      continue;
    }
    // A demotion must leave a staff account (ADR 0077): refused like any other line.
    if (row?.role === 'staff' && r.rolle !== 'staff' && (await isLastStaff(trx, person.id))) {
      outcomes.set(line.line, { reason: `username ${r.username}: the last staff account stays staff` });
      continue;
    }
    if (row && row.role !== r.rolle)
      // A role change ends the account's sessions like every other one (ADR 0063).
      await trx
        .updateTable('accounts')
        .set({ role: r.rolle, session_epoch: sql<number>`session_epoch + 1`, updated_at: at })
        .where('username', '=', r.username)
        .execute();
    if (row && row.card_number !== card)
      await trx
        .updateTable('accounts')
        .set({ card_number: card, updated_at: at })
        .where('username', '=', r.username)
        .execute();
    if (!row)
      await trx
        .insertInto('accounts')
        .values({
          person_id: person.id,
          username: r.username,
          password_hash: NO_PASSWORD,
          role: r.rolle,
          created_at: at,
          card_number: card,
        })
        .execute();
    byPerson.set(person.id, r.username);
    if (!batch.newPersons.has(person.id)) touched.set(person.id, nextUpdatedAt(at, person.updated_at));
    outcomes.set(line.line, row ? 'changed' : 'new');
  }
  await setVersions(trx, 'persons', touched);
}

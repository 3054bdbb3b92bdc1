// Loads the demo catalogue into an empty database: authors, works, library users with
// accounts (see DEMO_ACCOUNTS), every work's copies (copies.ts) and a few loans, each of a copy. Does nothing when any person exists, so it can
// run on every start; two processes starting together cannot load it twice (unique slugs).
import type { Kysely } from 'kysely';
import {
  ConflictError,
  detectCapabilities,
  placeUnranked,
  slugCandidate,
  slugify,
  searchText,
} from '../../storage/index.ts';
import { hashPassword, defaultCardNumber } from '../accounts/index.ts';
import { personSortKey } from '../persons/index.ts';
import type { DB, Role } from '../tables.ts';
import { workSearchText, workSortKey } from '../works/index.ts';
import { AUTHORS } from './authors.ts';
import { WORKS } from './works.ts';
import { demoCopyRows, shelfNumbers } from './copies.ts';

export interface DemoAccount {
  readonly username: string;
  /** Demo only: the password equals the username. */
  readonly password: string;
  readonly role: Role;
  /** Slug of the account's person. */
  readonly person: string;
}

/** Library users without works: [slug, vorname, nachname, geboren]. */
const MEMBERS = [
  ['anna-berger', 'Anna', 'Berger', 1994],
  ['ben-krueger', 'Ben', 'Krüger', 1988],
  ['petra-lindner', 'Petra', 'Lindner', 1971],
] as const;

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: 'personal', password: 'personal', role: 'staff', person: 'petra-lindner' },
  { username: 'anna', password: 'anna', role: 'member', person: 'anna-berger' },
  { username: 'ben', password: 'ben', role: 'member', person: 'ben-krueger' },
  { username: 'goethe', password: 'goethe', role: 'member', person: 'goethe' },
];

/** [username, work slug, days ago borrowed, returned days ago or null] */
const LOANS = [
  ['anna', 'faust', 5, null],
  ['anna', 'effi-briest', 12, null],
  ['anna', 'der-process', 60, 35],
  ['ben', 'pride-and-prejudice', 3, null],
  ['ben', 'moby-dick', 40, null], // overdue
] as const;

const LOAN_DAYS = 28;
const DAY_MS = 86_400_000;

export interface DemoResult {
  readonly loaded: boolean;
  readonly persons: number;
  readonly works: number;
}

/** Copies 1–5, stable per title, for works that do not say. */
function copiesFor(titel: string): number {
  let hash = 0;
  for (const char of titel) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 1 + (hash % 5);
}

export async function loadDemo(db: Kysely<DB>, now: Date = new Date()): Promise<DemoResult> {
  if (await db.selectFrom('persons').select('id').limit(1).executeTakeFirst())
    return { loaded: false, persons: 0, works: 0 };
  const hashes = new Map(
    await Promise.all(DEMO_ACCOUNTS.map(async (a) => [a.username, await hashPassword(a.password)] as const)),
  );
  const at = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      // Checked again inside the transaction: another process may have loaded meanwhile.
      if (await trx.selectFrom('persons').select('id').limit(1).executeTakeFirst())
        return { loaded: false, persons: 0, works: 0 };
      const people = [
        ...AUTHORS.map(([slug, vorname, nachname, geboren, gestorben]) => ({
          slug,
          vorname,
          nachname,
          geboren,
          gestorben,
        })),
        ...MEMBERS.map(([slug, vorname, nachname, geboren]) => ({
          slug,
          vorname,
          nachname,
          geboren,
          gestorben: null,
        })),
      ];
      const personIds = new Map<string, number>();
      const names = new Map<string, { vorname: string; nachname: string }>();
      for (const p of people) {
        const { id } = await trx
          .insertInto('persons')
          .values({
            ...p,
            image: `/bilder/${p.slug}.svg`,
            sort_key: personSortKey(p.vorname, p.nachname),
            search_text: searchText(p.vorname, p.nachname),
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        personIds.set(p.slug, id);
        names.set(p.slug, p);
      }
      const workIds = new Map<string, number>();
      const shelfNumber = shelfNumbers();
      for (const [titel, jahr, authors, copies] of WORKS) {
        const base = slugify(titel, 'werk');
        let n = 1;
        while (workIds.has(slugCandidate(base, n))) n += 1;
        const slug = slugCandidate(base, n);
        const persons = authors.map((a) => names.get(a) ?? missing(a));
        const exemplare = copies ?? copiesFor(titel);
        const { id } = await trx
          .insertInto('works')
          .values({
            slug,
            titel,
            jahr,
            exemplare,
            sort_key: workSortKey(titel),
            search_text: workSearchText(titel, persons),
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        workIds.set(slug, id);
        const nachname = persons[0]?.nachname ?? null;
        const rows = demoCopyRows({ id, titel, nachname, exemplare }, shelfNumber(nachname), at);
        if (rows.length > 0) await trx.insertInto('copies').values(rows).execute();
        await trx
          .insertInto('person_work')
          .values(
            authors.map((a, position) => ({
              person_id: personIds.get(a) ?? missing(a),
              work_id: id,
              position,
            })),
          )
          .execute();
      }
      await placeUnranked(trx, detectCapabilities(db), 'works');
      await placeUnranked(trx, detectCapabilities(db), 'persons');
      const accountIds = new Map<string, number>();
      for (const account of DEMO_ACCOUNTS) {
        const person_id = personIds.get(account.person) ?? missing(account.person);
        accountIds.set(account.username, person_id);
        const password_hash = hashes.get(account.username) ?? missing(account.username);
        await trx
          .insertInto('accounts')
          .values({
            person_id,
            username: account.username,
            password_hash,
            role: account.role,
            created_at: at,
            card_number: defaultCardNumber(person_id),
          })
          .execute();
      }
      // Each open loan lends the next copy of its work; a returned one names copy 1.
      const lent = new Map<number, number>();
      for (const [username, work, daysAgo, returnedDaysAgo] of LOANS) {
        const borrowed = now.getTime() - daysAgo * DAY_MS;
        const work_id = workIds.get(work) ?? missing(work);
        const nummer = returnedDaysAgo === null ? (lent.get(work_id) ?? 0) + 1 : 1;
        if (returnedDaysAgo === null) lent.set(work_id, nummer);
        const copy = await trx
          .selectFrom('copies')
          .select('id')
          .where('work_id', '=', work_id)
          .where('nummer', '=', nummer)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('loans')
          .values({
            person_id: accountIds.get(username) ?? missing(username),
            work_id,
            copy_id: copy.id,
            borrowed_at: new Date(borrowed).toISOString(),
            due_at: new Date(borrowed + LOAN_DAYS * DAY_MS).toISOString(),
            returned_at:
              returnedDaysAgo === null
                ? null
                : new Date(now.getTime() - returnedDaysAgo * DAY_MS).toISOString(),
          })
          .execute();
      }
      return { loaded: true, persons: people.length, works: WORKS.length };
    });
  } catch (error) {
    // PostgreSQL: a concurrent loader committed first and our inserts hit its unique slugs.
    if (error instanceof ConflictError) return { loaded: false, persons: 0, works: 0 };
    throw error;
  }
}

function missing(what: string): never {
  throw new Error(`demo data refers to unknown "${what}"`);
}

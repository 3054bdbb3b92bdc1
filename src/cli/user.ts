// `shelfmark user …`: account administration at the command line (docs/urls.md, docs/access.md).
//   user add <username> --person <slug> [--role staff|member] [--password-stdin]
//   user passwd <username> [--password-stdin]
//   user role <username> staff|member
//   user lock <username> / user unlock <username>
//   user remove <username>
// The password is typed at a prompt that does not echo (twice), or with --password-stdin read
// from the first line of standard input (for scripts). It is never printed or logged.
import type { Config } from '../config/index.ts';
import { openCatalogueDatabase, prepareDatabase } from '../main.ts';
import {
  AccountError,
  createAccountStore,
  hashPassword,
  MIN_PASSWORD_LENGTH,
  MAX_PASSWORD_LENGTH,
  passwordProblem,
  ROLES,
  type AccountStore,
} from '../catalogue/accounts/index.ts';
import type { PersonStore } from '../catalogue/model.ts';
import { createStores } from '../catalogue/stores.ts';
import type { Role } from '../catalogue/tables.ts';
import { promptPassword, readPasswordLine } from './password-input.ts';

export const USER_USAGE = `usage:
  shelfmark user add <username> --person <slug> [--role staff|member] [--password-stdin]
  shelfmark user passwd <username> [--password-stdin]
  shelfmark user role <username> staff|member
  shelfmark user lock <username>
  shelfmark user unlock <username>
  shelfmark user remove <username>
`;

export { MIN_PASSWORD_LENGTH };

export interface UserCommandDeps {
  readonly accounts: AccountStore;
  readonly persons: Pick<PersonStore, 'bySlug'>;
  /** Asks for (or reads) a new password; `fromStdin` is --password-stdin. */
  readPassword(fromStdin: boolean): Promise<string>;
  hash(password: string): Promise<string>;
  out(text: string): void;
  err(text: string): void;
}

async function personIdOf(persons: UserCommandDeps['persons'], slug: string): Promise<number> {
  let lookup = await persons.bySlug(slug);
  if (lookup && 'movedTo' in lookup) lookup = await persons.bySlug(lookup.movedTo);
  if (lookup && 'found' in lookup) return lookup.found.id;
  throw new AccountError(
    lookup && 'gone' in lookup ? `the person "${slug}" was deleted` : `there is no person "${slug}"`,
  );
}

/** The same rule as the HTTP password forms (accounts/password-rule.ts). */
async function newPassword(deps: UserCommandDeps, fromStdin: boolean, username: string): Promise<string> {
  const password = await deps.readPassword(fromStdin);
  const problem = passwordProblem(password, username);
  if (problem === 'too-short')
    throw new AccountError(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (problem === 'too-long')
    throw new AccountError(`the password may have at most ${MAX_PASSWORD_LENGTH} characters`);
  if (problem === 'username') throw new AccountError('the password must not be the user name');
  return deps.hash(password);
}

/** Runs one `user` sub-command; returns the exit code. */
export async function runUserCommand(
  deps: UserCommandDeps,
  args: readonly string[],
  flags: Record<string, string | boolean>,
): Promise<number> {
  const [sub, username, extra] = args;
  const stdinFlag = flags['password-stdin'];
  if (!sub || !username || (stdinFlag !== undefined && typeof stdinFlag !== 'boolean')) {
    deps.err(USER_USAGE);
    return 2;
  }
  const fromStdin = stdinFlag === true;
  try {
    switch (sub) {
      case 'add': {
        const slug = flags.person;
        const role = flags.role ?? 'member';
        if (typeof slug !== 'string' || typeof role !== 'string' || extra !== undefined) break;
        if (!ROLES.includes(role as Role))
          throw new AccountError(`the role is staff or member, not "${role}"`);
        const personId = await personIdOf(deps.persons, slug);
        if (await deps.accounts.findByUsername(username))
          throw new AccountError(`the user name "${username}" is taken`);
        const passwordHash = await newPassword(deps, fromStdin, username);
        const account = await deps.accounts.add({ personId, username, passwordHash, role: role as Role });
        deps.out(`added ${account.username} (${account.role}) for person ${slug}, user id ${account.id}\n`);
        return 0;
      }
      case 'passwd': {
        if (extra !== undefined) break;
        if (!(await deps.accounts.findByUsername(username))) throw new AccountError(`no user "${username}"`);
        const passwordHash = await newPassword(deps, fromStdin, username);
        if (!(await deps.accounts.setPassword(username, passwordHash)))
          throw new AccountError(`no user "${username}"`);
        deps.out(`changed the password of ${username}\n`);
        return 0;
      }
      case 'role': {
        if (extra === undefined || !ROLES.includes(extra as Role))
          throw new AccountError(`the role is staff or member, not "${extra ?? ''}"`);
        if (!(await deps.accounts.setRole(username, extra as Role)))
          throw new AccountError(`no user "${username}"`);
        deps.out(`${username} is now ${extra}\n`);
        return 0;
      }
      case 'lock':
      case 'unlock': {
        // Locked ≠ removed: the account stays, its sessions and Basic credentials end (ADR 0063).
        if (extra !== undefined) break;
        if (!(await deps.accounts.setLocked(username, sub === 'lock')))
          throw new AccountError(`no user "${username}"`);
        deps.out(`${username} is now ${sub === 'lock' ? 'locked' : 'unlocked'}\n`);
        return 0;
      }
      case 'remove': {
        if (extra !== undefined) break;
        if (!(await deps.accounts.remove(username))) throw new AccountError(`no user "${username}"`);
        deps.out(`removed the account ${username} (the person stays)\n`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    deps.err(`shelfmark user ${sub}: ${error.message}\n`);
    return 1;
  }
  deps.err(USER_USAGE);
  return 2;
}

/** `shelfmark user …` against the configured database (migrated first, no demo data loaded). */
export async function userCommand(
  config: Config,
  flags: Record<string, string | boolean>,
  positional: readonly string[] = [],
): Promise<number> {
  await prepareDatabase({ ...config, demo: false });
  const database = await openCatalogueDatabase(config);
  try {
    return await runUserCommand(
      {
        accounts: createAccountStore(database.db),
        persons: createStores(database.db, { capabilities: database.capabilities }).persons,
        readPassword: (fromStdin) => (fromStdin ? readPasswordLine(process.stdin) : promptPassword()),
        hash: (password) => hashPassword(password),
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      },
      positional.slice(1),
      flags,
    );
  } finally {
    await database.close();
  }
}

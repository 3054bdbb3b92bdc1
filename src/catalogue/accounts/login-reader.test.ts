// The log-in reader on both engines: a password check's three reads (the user name's failures,
// the address's, the account) asked in one turn are one statement, and each ask gets its own
// answer — a statement that mixed the rows up, or lost the account, fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { createStores } from '../stores.ts';
import { createLoginReader } from './login-reader.ts';

const NOW = Date.UTC(2026, 0, 2);

/** `db` counting the statements run through it. */
function counting(db: Kysely<DB>): { db: Kysely<DB>; count: () => number } {
  let statements = 0;
  const counted = new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === 'executeQuery') statements++;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: counted, count: () => statements };
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`the log-in reader on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let goethe: number;
    before(async () => {
      database = await target.open();
      const stores = createStores(database.db, { capabilities: database.capabilities });
      goethe = (await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'Goethe' })).id;
      const gone = await stores.persons.create({ slug: 'gone', vorname: 'Ex', nachname: 'Patron' });
      await stores.accounts.add({
        personId: goethe,
        username: 'goethe',
        passwordHash: 'hash-g',
        role: 'staff',
      });
      await stores.accounts.add({ personId: gone.id, username: 'gone', passwordHash: 'hash-x' });
      await stores.persons.delete(gone.id);
      const failures = [
        ['name', NOW - 3000],
        ['name', NOW - 2000],
        ['name', NOW - 9_000_000],
        ['address', NOW - 1000],
      ] as const;
      await database.db
        .insertInto('login_failures')
        .values(failures.map(([key_hash, at]) => ({ key_hash, at })))
        .execute();
    });
    after(() => database?.dispose());

    const asks = (max: number) => ({
      name: { key: 'name', since: NOW - 60_000, max },
      address: { key: 'address', since: NOW - 60_000, max },
    });

    test('the counts of a name and an address and the account: one statement, each its own answer', async () => {
      const { db, count } = counting(database.db);
      const reader = createLoginReader(db);
      const { name, address } = asks(5);
      const [byName, byAddress, account] = await Promise.all([
        reader.recent(name),
        reader.recent(address),
        reader.account(' Goethe '),
      ]);
      assert.equal(count(), 1, 'one statement');
      assert.deepEqual(
        byName.map((r) => Number(r.at)),
        [NOW - 2000, NOW - 3000],
        "the name's failures in the window, newest first",
      );
      assert.deepEqual(
        byAddress.map((r) => Number(r.at)),
        [NOW - 1000],
      );
      assert.deepEqual(account, {
        id: goethe,
        username: 'goethe',
        role: 'staff',
        passwordHash: 'hash-g',
        epoch: 0,
        locked: false,
      });

      // Each limit is its own: the name's newest one only.
      const [newest] = await Promise.all([
        reader.recent(asks(1).name),
        reader.recent(address),
        reader.account('goethe'),
      ]);
      assert.deepEqual(
        newest.map((r) => Number(r.at)),
        [NOW - 2000],
      );
    });

    test('no account: an unknown name, a removed person, a name that cannot be one', async () => {
      const { db, count } = counting(database.db);
      const reader = createLoginReader(db);
      const { name, address } = asks(5);
      for (const who of ['nobody', 'gone']) {
        const [byName, , account] = await Promise.all([
          reader.recent(name),
          reader.recent(address),
          reader.account(who),
        ]);
        assert.equal(account, null, who);
        assert.equal(byName.length, 2, `${who}: the counts still come`);
      }
      const before = count();
      assert.equal(await reader.account('no spaces allowed'), null);
      assert.equal(count(), before, 'an invalid name is not looked up');
    });

    test('two checks in one turn: a statement each; an account alone, or a count alone', async () => {
      const { db, count } = counting(database.db);
      const reader = createLoginReader(db);
      const { name, address } = asks(5);
      const both = await Promise.all([
        reader.recent(name),
        reader.recent(address),
        reader.account('goethe'),
        reader.recent(address),
        reader.recent(name),
        reader.account('nobody'),
      ]);
      assert.equal(count(), 2);
      assert.deepEqual(
        both.map((answer) =>
          Array.isArray(answer)
            ? answer.length
            : answer === null
              ? null
              : (answer as { username: string }).username,
        ),
        [2, 1, 'goethe', 1, 2, null],
      );
      assert.equal((await reader.account('goethe'))?.id, goethe);
      assert.equal((await reader.recent(name)).length, 2);
      assert.equal(count(), 4);
    });
  });
}

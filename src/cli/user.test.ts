// `shelfmark user …` against a real (SQLite) accounts table, with the password reader faked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAccountStore, type AccountStore } from '../catalogue/accounts/index.ts';
import type { DB } from '../catalogue/tables.ts';
import { createStores } from '../catalogue/stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../test/kit/catalogue/targets.ts';
import { runUserCommand, type UserCommandDeps } from './user.ts';

let database: TestDatabase<DB>;
let accounts: AccountStore;
let deps: UserCommandDeps;
const output: string[] = [];
const passwords: string[] = [];

before(async () => {
  database = await catalogueTestTargets(undefined)[0]!.open();
  const stores = createStores(database.db);
  await stores.persons.create({ slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' });
  await stores.persons.create({ slug: 'carl-weber', vorname: 'Carl', nachname: 'Weber' });
  accounts = createAccountStore(database.db);
  deps = {
    accounts,
    persons: stores.persons,
    readPassword: async () => passwords.shift() ?? '',
    hash: async (pw) => `$plain$${pw}`,
    out: (t) => output.push(t),
    err: (t) => output.push(t),
  };
});
after(() => database?.dispose());

test('add, passwd, role, remove; the password is never printed', async () => {
  passwords.push('geheim-genug');
  assert.equal(
    await runUserCommand(deps, ['add', 'anna'], {
      person: 'anna-berger',
      role: 'staff',
      'password-stdin': true,
    }),
    0,
  );
  assert.deepEqual(await accounts.findByUsername('anna'), {
    id: 1,
    username: 'anna',
    role: 'staff',
    passwordHash: '$plain$geheim-genug',
    epoch: 0,
    locked: false,
  });
  passwords.push('kurz');
  assert.equal(await runUserCommand(deps, ['passwd', 'anna'], {}), 1, 'too short');
  passwords.push('noch-geheimer');
  assert.equal(await runUserCommand(deps, ['passwd', 'anna'], {}), 0);
  assert.equal((await accounts.findByUsername('anna'))?.passwordHash, '$plain$noch-geheimer');
  assert.equal((await accounts.findByUsername('anna'))?.epoch, 1, 'passwd ends the sessions');
  passwords.push('ANNA');
  assert.equal(await runUserCommand(deps, ['passwd', 'anna'], {}), 1, 'the user name is no password');
  // The only staff account stays (ADR 0077): not demoted, locked or removed, exit 1.
  for (const command of [
    ['role', 'anna', 'member'],
    ['lock', 'anna'],
    ['remove', 'anna'],
  ]) {
    assert.equal(await runUserCommand(deps, command, {}), 1, command.join(' '));
    assert.match(output.at(-1) ?? '', /last staff account/);
  }
  assert.equal((await accounts.findByUsername('anna'))?.epoch, 1, 'nothing was written');
  passwords.push('carls-passwort');
  assert.equal(
    await runUserCommand(deps, ['add', 'carl'], {
      person: 'carl-weber',
      role: 'staff',
      'password-stdin': true,
    }),
    0,
  );
  assert.equal(await runUserCommand(deps, ['role', 'anna', 'member'], {}), 0);
  assert.equal((await accounts.findByUsername('anna'))?.role, 'member');
  assert.equal((await accounts.findByUsername('anna'))?.epoch, 2, 'a role change ends the sessions');
  assert.equal(await runUserCommand(deps, ['lock', 'anna'], {}), 0);
  assert.deepEqual(
    [(await accounts.findByUsername('anna'))?.locked, (await accounts.findByUsername('anna'))?.epoch],
    [true, 3],
  );
  assert.equal(await runUserCommand(deps, ['unlock', 'anna'], {}), 0);
  assert.equal((await accounts.findByUsername('anna'))?.locked, false);
  assert.equal(await runUserCommand(deps, ['lock', 'niemand'], {}), 1);
  assert.equal(await runUserCommand(deps, ['role', 'anna', 'admin'], {}), 1);
  assert.equal(await runUserCommand(deps, ['add', 'x'], { person: 'niemand' }), 1);
  passwords.push('lang-genug-1');
  assert.equal(
    await runUserCommand(deps, ['add', 'anna2'], { person: 'anna-berger' }),
    1,
    'one account per person',
  );
  assert.match(output.at(-1) ?? '', /already has an account/);
  assert.equal(await runUserCommand(deps, ['remove', 'anna'], {}), 0);
  assert.equal(await runUserCommand(deps, ['remove', 'anna'], {}), 1);
  assert.equal(await runUserCommand(deps, ['frobnicate', 'anna'], {}), 2);
  assert.ok(!output.join('').includes('geheim'), output.join(''));
});

// AccountStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { AccountError, createAccountStore, type AccountStore } from './store.ts';
import { LastStaffError } from './last-staff.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`AccountStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let accounts: AccountStore;
    let anna: number;
    let ben: number;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      accounts = createAccountStore(database.db);
      anna = (await stores.persons.create({ vorname: 'Anna', nachname: 'Berger' })).id;
      ben = (await stores.persons.create({ vorname: 'Ben', nachname: 'Adler' })).id;
    });
    after(() => database?.dispose());

    test('add, then find by name (any case) and by person id', async () => {
      const added = await accounts.add({ personId: anna, username: 'Anna', passwordHash: 'h1' });
      assert.deepEqual(added, {
        id: anna,
        username: 'anna',
        role: 'member',
        passwordHash: 'h1',
        epoch: 0,
        locked: false,
      });
      assert.deepEqual(await accounts.findByUsername('ANNA'), added);
      assert.deepEqual(await accounts.findById(anna), added);
      assert.equal(await accounts.findByUsername('nobody'), null);
      assert.equal(await accounts.findByUsername("anna' or '1'='1"), null);
      assert.equal(await accounts.findById(999_999), null);
    });

    test('refuses taken names, a second account per person, missing persons, bad names', async () => {
      await assert.rejects(
        accounts.add({ personId: ben, username: 'anna', passwordHash: 'x' }),
        (e: unknown) => e instanceof AccountError && /taken/.test(e.message),
      );
      await assert.rejects(
        accounts.add({ personId: anna, username: 'anna2', passwordHash: 'x' }),
        (e: unknown) => e instanceof AccountError && /already has an account/.test(e.message),
      );
      await assert.rejects(
        accounts.add({ personId: 424242, username: 'ghost', passwordHash: 'x' }),
        AccountError,
      );
      for (const bad of ['', ' ', 'a b', '-x', 'ä', 'x'.repeat(41)]) {
        await assert.rejects(accounts.add({ personId: ben, username: bad, passwordHash: 'x' }), AccountError);
      }
    });

    test('set password and role, remove', async () => {
      await accounts.add({ personId: ben, username: 'ben', passwordHash: 'old', role: 'staff' });
      assert.equal(await accounts.setPassword('BEN', 'new'), true);
      await assert.rejects(accounts.setRole('ben', 'member'), LastStaffError, 'the only staff account');
      // Dora stays staff to the end, so every later test may demote, lock and delete (ADR 0077).
      const dora = (await stores.persons.create({ vorname: 'Dora', nachname: 'Weiß' })).id;
      await accounts.add({ personId: dora, username: 'dora', passwordHash: 'h', role: 'staff' });
      assert.equal(await accounts.setRole('ben', 'member'), true);
      assert.deepEqual(await accounts.findById(ben), {
        id: ben,
        username: 'ben',
        role: 'member',
        passwordHash: 'new',
        epoch: 2,
        locked: false,
      });
      assert.equal(await accounts.setPassword('nobody', 'x'), false);
      assert.equal(await accounts.setRole('nobody', 'staff'), false);
      await assert.rejects(accounts.setRole('ben', 'admin' as never), AccountError);
      assert.equal(await accounts.remove('ben'), true);
      assert.equal(await accounts.remove('ben'), false);
      assert.equal(await accounts.findByUsername('ben'), null);
    });

    test('every change that must end sessions moves the epoch; nothing else does', async () => {
      const cleo = (await stores.persons.create({ vorname: 'Cleo', nachname: 'Fuchs' })).id;
      await accounts.add({ personId: cleo, username: 'cleo', passwordHash: 'h0' });
      const created = await accounts.details(cleo);
      assert.ok(created);
      assert.equal(created.epoch, 0);
      assert.deepEqual(created.passwordChangedAt, created.createdAt);

      const changed = await accounts.changePassword(cleo, 'h1');
      assert.equal(changed?.epoch, 1);
      assert.equal(changed?.passwordHash, 'h1');
      assert.ok(
        changed && changed.passwordChangedAt > created.passwordChangedAt,
        'the password version moved',
      );
      assert.deepEqual(changed?.updatedAt, created.updatedAt, "the account's version did not");

      const locked = await accounts.update(cleo, { role: 'member', locked: true });
      assert.equal(locked?.epoch, 2);
      assert.equal(locked?.locked, true);
      assert.ok(locked?.lockedAt);
      assert.equal((await accounts.findByUsername('cleo'))?.locked, true, 'a locked account is still found');
      const same = await accounts.update(cleo, { role: 'member', locked: true });
      assert.equal(same?.epoch, 2, 'no change, no new epoch');
      assert.deepEqual(same?.updatedAt, locked?.updatedAt);
      const staff = await accounts.update(cleo, { role: 'staff', locked: false });
      assert.deepEqual(
        [staff?.epoch, staff?.role, staff?.locked, staff?.lockedAt],
        [3, 'staff', false, null],
      );
      assert.equal(await accounts.setLocked('cleo', true), true);
      assert.equal((await accounts.findById(cleo))?.epoch, 4);

      await assert.rejects(
        accounts.update(cleo, { role: 'member', locked: false }, { expectedUpdatedAt: created.updatedAt }),
        /changed by another write/,
      );
      await assert.rejects(
        accounts.changePassword(cleo, 'h2', { expectedUpdatedAt: created.passwordChangedAt }),
        /changed by another write/,
      );
      assert.equal(
        (await accounts.findById(cleo))?.passwordHash,
        'h1',
        'a lost compare-and-set wrote nothing',
      );
      assert.equal(await accounts.changePassword(999_999, 'x'), null);
      assert.equal(await accounts.update(999_999, { role: 'member', locked: false }), null);
      assert.equal(await accounts.removeById(cleo), true);
      assert.equal(await accounts.details(cleo), null);
    });

    test('the last usable staff account is never deleted, locked, demoted, nor its person deleted', async () => {
      const dora = (await accounts.findByUsername('dora'))?.id;
      assert.ok(dora);
      const refused = (what: Promise<unknown>) => assert.rejects(what, LastStaffError);
      await refused(accounts.setRole('dora', 'member'));
      await refused(accounts.setLocked('dora', true));
      await refused(accounts.update(dora, { role: 'staff', locked: true }));
      await refused(accounts.remove('dora'));
      await refused(accounts.removeById(dora));
      await refused(stores.persons.delete(dora));
      assert.equal(await stores.persons.holdsLastStaff(dora), true);
      const after = await accounts.details(dora);
      assert.deepEqual(
        [after?.role, after?.locked, after?.epoch],
        ['staff', false, 0],
        'nothing was written',
      );
      const person = await stores.persons.byId(dora);
      assert.ok(person && 'found' in person, 'the person is still there');

      // Two staff demoting each other at once: serialised by the counter's lock, one stays.
      const emil = (await stores.persons.create({ vorname: 'Emil', nachname: 'Roth' })).id;
      await accounts.add({ personId: emil, username: 'emil', passwordHash: 'h', role: 'staff' });
      assert.equal(await stores.persons.holdsLastStaff(dora), false);
      const outcomes = await Promise.allSettled([
        accounts.setRole('dora', 'member'),
        accounts.setRole('emil', 'member'),
      ]);
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      const rejected = outcomes.find((o) => o.status === 'rejected');
      assert.ok(rejected?.reason instanceof LastStaffError);
      const roles = [(await accounts.findById(dora))?.role, (await accounts.findById(emil))?.role];
      assert.deepEqual(
        roles.filter((r) => r === 'staff'),
        ['staff'],
        'exactly one staff account left',
      );
    });

    test('a deleted person has no usable account', async () => {
      assert.ok(await stores.persons.delete(anna));
      assert.equal(await accounts.findByUsername('anna'), null);
      assert.equal(await accounts.findById(anna), null);
    });
  });
}

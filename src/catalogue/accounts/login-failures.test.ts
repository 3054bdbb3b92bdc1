// The database-backed login limiter and the stored session secret, on both engines.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { createDatabaseLoginLimiter } from './login-failures.ts';
import { createLoginReader } from './login-reader.ts';
import { storedSessionSecret } from './session-secret.ts';

const MIN = 60_000;

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`login failures on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    before(async () => {
      database = await target.open();
    });
    after(() => database?.dispose());

    test('a sliding window shared by every limiter on the database; keys stored hashed', async () => {
      let now = Date.UTC(2026, 0, 1);
      const clock = () => now;
      const one = createDatabaseLoginLimiter(database.db, { now: clock });
      const other = createDatabaseLoginLimiter(database.db, { now: clock }); // another worker
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await (i % 2 ? one : other).check('goethe\u0000192.0.2.1'), { allowed: true });
        await (i % 2 ? other : one).recordFailure('goethe\u0000192.0.2.1');
        now += MIN;
      }
      assert.deepEqual(await one.check('goethe\u0000192.0.2.1'), {
        allowed: false,
        retryAfterSeconds: 10 * 60,
      });
      assert.equal((await other.check('goethe\u0000192.0.2.1')).allowed, false);
      assert.equal((await other.check('goethe\u0000192.0.2.2')).allowed, true, 'another address');
      const rows = await database.db.selectFrom('login_failures').select('key_hash').execute();
      assert.ok(
        rows.every((r) => !r.key_hash.includes('goethe')),
        'no name in the table',
      );
      now += 11 * MIN;
      assert.equal(
        (await one.check('goethe\u0000192.0.2.1')).allowed,
        true,
        'the first failure left the window',
      );
      await one.recordFailure('goethe\u0000192.0.2.1');
      await other.reset('goethe\u0000192.0.2.1');
      assert.equal((await one.check('goethe\u0000192.0.2.1')).allowed, true, 'a success clears the key');
    });

    test('limiters sharing a reader check a name and an address together, each with its own limit', async () => {
      const now = Date.UTC(2026, 0, 2);
      let statements = 0;
      // The reader's database, counting the statements it runs.
      const counted = new Proxy(database.db, {
        get(target, prop) {
          const value: unknown = Reflect.get(target, prop, target);
          if (prop === 'executeQuery') statements++;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const reader = createLoginReader(counted);
      const names = createDatabaseLoginLimiter(database.db, { now: () => now, maxFailures: 2, reader });
      const addresses = createDatabaseLoginLimiter(database.db, { now: () => now, maxFailures: 3, reader });
      for (let i = 0; i < 2; i++) await names.recordFailure('schiller\u0000192.0.2.9');
      for (let i = 0; i < 3; i++) await addresses.recordFailure('192.0.2.7');
      const both = async (name: string, address: string) =>
        (await Promise.all([names.check(name), addresses.check(address)])).map((v) => v.allowed);
      statements = 0;
      assert.deepEqual(await both('schiller\u0000192.0.2.9', '192.0.2.8'), [false, true]);
      assert.equal(statements, 1, 'both counts in one statement');
      assert.deepEqual(await both('schiller\u0000192.0.2.8', '192.0.2.7'), [true, false]);
      assert.deepEqual(await both('schiller\u0000192.0.2.9', '192.0.2.7'), [false, false]);
      // The name limiter's limit of 2 is not the address limiter's 3: two failures of an address
      // leave it allowed, though the same read brings the name's.
      await addresses.recordFailure('192.0.2.6');
      await addresses.recordFailure('192.0.2.6');
      assert.deepEqual(await both('goethe\u0000192.0.2.6', '192.0.2.6'), [true, true]);
      // Three asks in one turn: a pair and one alone, each answered with its own rows.
      const three = await Promise.all([
        names.check('schiller\u0000192.0.2.9'),
        addresses.check('192.0.2.7'),
        addresses.check('192.0.2.6'),
      ]);
      assert.deepEqual(
        three.map((v) => v.allowed),
        [false, false, true],
      );
    });

    test('the session secret is generated once and shared', async () => {
      const first = await storedSessionSecret(database.db, () => 'candidate-one-of-at-least-32-chars!!');
      const second = await storedSessionSecret(database.db, () => 'candidate-two-of-at-least-32-chars!!');
      assert.equal(first, 'candidate-one-of-at-least-32-chars!!');
      assert.equal(second, first);
    });
  });
}

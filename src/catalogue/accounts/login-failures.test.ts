// The database-backed login limiter and the stored session secret, on both engines.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { createDatabaseLoginLimiter } from './login-failures.ts';
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

    test('the session secret is generated once and shared', async () => {
      const first = await storedSessionSecret(database.db, () => 'candidate-one-of-at-least-32-chars!!');
      const second = await storedSessionSecret(database.db, () => 'candidate-two-of-at-least-32-chars!!');
      assert.equal(first, 'candidate-one-of-at-least-32-chars!!');
      assert.equal(second, first);
    });
  });
}

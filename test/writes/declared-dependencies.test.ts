// Every cacheable resource declares what it shows (ADR 0098): one that declares nothing is
// dropped by every write anywhere in the catalogue (ADR 0088's fallback), so under a library's
// steady lending its cached renderings would never live long. This test builds every resource
// the server serves and fails for a cacheable one without `dependsOn`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogueResources, type CatalogueOptions } from '../../src/catalogue/index.ts';
import { createStores } from '../../src/catalogue/stores.ts';
import { catalogueTestTargets } from '../kit/catalogue/targets.ts';

test('every cacheable resource declares the subjects it shows', async () => {
  const [sqlite] = catalogueTestTargets(undefined);
  const database = await sqlite!.open();
  try {
    const stores = createStores(database.db, { capabilities: database.capabilities });
    // Built, never called: the options only decide which resources exist.
    const passwordReset = {} as NonNullable<CatalogueOptions['passwordReset']>;
    const { resources } = catalogueResources(stores, { passwordReset, errorLogPath: 'unused.log' });
    const cacheable = resources.filter((r) => r.cacheable === true);
    // The lending resources are among them: the full set was built.
    for (const name of ['person', 'work', 'loans', 'loan', 'holds', 'hold', 'hold-queue'])
      assert.ok(
        cacheable.some((r) => r.name === name),
        `${name} is built and cacheable`,
      );
    assert.deepEqual(
      cacheable.filter((r) => r.dependsOn === undefined).map((r) => r.name),
      [],
      'cacheable resources without dependsOn (every write would drop them)',
    );
  } finally {
    await database.dispose();
  }
});

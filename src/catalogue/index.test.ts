import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { catalogueResources, catalogueRewrites } from './index.ts';
import { fakeContext, fakePersonStore, fakeWorkStore } from '../../test/kit/catalogue/fakes.ts';

test('catalogueResources wires every GET resource, the rewrites and the extra routes', async () => {
  const c = catalogueResources({ persons: fakePersonStore(), works: fakeWorkStore() });
  assert.deepEqual(
    c.resources.map((r) => [r.name, r.path, Object.keys(r.methods)]),
    [
      ['home', '/', ['GET']],
      ['persons', '/personen', ['GET']],
      ['person', '/person', ['GET']],
      ['works', '/werke', ['GET']],
      ['work', '/werk', ['GET']],
      ['session', '/sitzung', ['GET', 'POST', 'DELETE']],
    ],
  );
  assert.equal(c.rewrites.length, catalogueRewrites.length);
  assert.deepEqual(c.passthrough, ['/schema/', '/bilder/', '/static/', '/openapi.json', '/opensearch.xml']);
  const app = Fastify();
  await c.configure(app);
  assert.equal((await app.inject('/schema/person.xsd')).statusCode, 200);
  assert.match(
    c.errorPage({ type: 'about:blank', title: 'Gone', status: 410, code: 'X' }, fakeContext()).text,
    /410/,
  );
});

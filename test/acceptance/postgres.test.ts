// Issue 2 acceptance on PostgreSQL: the same server over a fresh schema of the database named by
// SHELFMARK_TEST_DATABASE_URL (the DATABASE_URL carries `?options=-c search_path=<schema>`,
// which pg hands to the server, so every pooled connection — migrations, demo, requests —
// works inside the schema). Shapes, script URLs, search and paging with inserts.
import { after, before, describe, test } from 'node:test';
import { freshSchema, skipUnlessPg, type FreshSchema } from '../support/pg.ts';
import { startCatalogue, type Catalogue } from './catalogue-server.ts';
import { checkPagingWithInserts, checkPersonShapes, checkScriptUrls, checkSearch } from './checks.ts';

describe('the catalogue over HTTP (PostgreSQL)', skipUnlessPg, () => {
  let schema: FreshSchema | undefined;
  let c: Catalogue | undefined;
  before(async () => {
    schema = await freshSchema();
    c = await startCatalogue({ databaseUrl: schema.url });
  });
  after(async () => {
    await c?.stop();
    await schema?.drop();
  });

  test("goethe's XML and JSON are exactly docs/representations.md's shapes; the HTML shows what it lists", () =>
    checkPersonShapes(c!));
  test('script URLs give the readable URL’s body and send Link rel=canonical', () => checkScriptUrls(c!));
  test('search finds Faust for ?q=faust', () => checkSearch(c!));
  test('paging by rel=next visits each work once while works are inserted', () => checkPagingWithInserts(c!));
});

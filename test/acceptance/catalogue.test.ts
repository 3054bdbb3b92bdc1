// Issue 2 acceptance, end to end over HTTP against the real server (in this process, SQLite,
// demo catalogue): the person's exact shapes, script-style URLs, search, paging while works
// are inserted, and no cookie on any of these GETs (checked on every response by getText).
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from './catalogue-server.ts';
import { checkPagingWithInserts, checkPersonShapes, checkScriptUrls, checkSearch } from './checks.ts';

describe('the catalogue over HTTP (SQLite)', () => {
  let c: Catalogue;
  before(async () => {
    c = await startCatalogue();
  });
  after(() => c?.stop());

  test("goethe's XML and JSON are exactly docs/representations.md's shapes; the HTML shows what it lists", () =>
    checkPersonShapes(c));
  test('script URLs give the readable URL’s body and send Link rel=canonical', () => checkScriptUrls(c));
  test('search finds Faust for ?q=faust', () => checkSearch(c));
  test('paging by rel=next visits each work once while works are inserted', () => checkPagingWithInserts(c));
});

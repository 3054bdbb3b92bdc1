// Issue 21: a route must not accept a request media type its operation does not list, nor list
// one it refuses. For every write /openapi.json describes, each media type the server has a
// body parser for (src/http/body), and one it has none for, is sent anonymously to the real
// server: `415` means refused (the type is checked before access, so nothing is written);
// anything else means the body was read. That set must equal the operation's requestBody.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PARSED_MEDIA_TYPES } from '../../src/http/body/index.ts';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';
import { operations, type Description } from './description.ts';

const SAMPLE: Record<string, string> = {
  'application/json': '{}',
  'application/merge-patch+json': '{}',
  'application/xml': '<x/>',
  'text/xml': '<x/>',
  'application/x-www-form-urlencoded': 'x=1',
};
const UNPARSED = 'text/plain';

/** A concrete URL for a template: any value does, the media type is refused before the lookup. */
const concrete = (template: string) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => (name.endsWith('_id') ? '1' : 'x'));

describe('the media types each write accepts are the ones it lists', () => {
  let c: Catalogue;
  let doc: Description;
  before(async () => {
    c = await startCatalogue({ demo: false });
    doc = (await (await c.get('/openapi.json')).json()) as Description;
  });
  after(() => c.stop());

  test('every parser is tried (the sample table keeps up with src/http/body)', () => {
    assert.deepEqual(
      PARSED_MEDIA_TYPES.filter((type) => !(type in SAMPLE)),
      [],
    );
  });

  test('accepted = listed, for every POST, PUT and PATCH', async () => {
    let checked = 0;
    for (const [id, { method, path, operation }] of operations(doc)) {
      if (method === 'get' || method === 'delete') continue;
      const listed = Object.keys(operation.requestBody?.content ?? {}).sort();
      const accepted: string[] = [];
      for (const type of [...PARSED_MEDIA_TYPES, UNPARSED]) {
        const r = await c.send(method.toUpperCase(), concrete(path), {
          headers: { 'Content-Type': type, Accept: 'application/json' },
          body: SAMPLE[type] ?? 'x',
        });
        await r.body?.cancel();
        if (r.status !== 415) accepted.push(type);
        else assert.ok('415' in operation.responses, `${id} answers 415 but does not list it`);
      }
      assert.deepEqual(accepted.sort(), listed, `${id}: accepted vs documented request media types`);
      checked += 1;
    }
    assert.ok(checked >= 15, String(checked));
  });
});

// Issue 21: the proxy of prism-traffic.test.ts does catch drift. Given a description that lists
// one status too few (getWork without 404) and one schema wrong (a work's `titel` an integer),
// Prism's validating proxy turns exactly those answers of the real server into violations.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';
import type { Description, Operation } from './description.ts';
import { startPrism, type Prism } from './prism.ts';

const JSON_ACCEPT = { Accept: 'application/json' };

describe('Prism’s validating proxy against a description that drifted from the server', () => {
  let c: Catalogue;
  let prism: Prism;
  let dir: string;
  before(async () => {
    c = await startCatalogue();
    const doc = (await (await c.get('/openapi.json')).json()) as Description;
    const getWork = doc.paths['/werke/{slug}']!.get as Operation;
    assert.ok(getWork.responses['404']);
    delete getWork.responses['404'];
    const work = doc.components.schemas.work as { properties: Record<string, unknown> };
    work.properties.titel = { type: 'integer' };
    dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-prism-drift-'));
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    prism = await startPrism(path.join(dir, 'openapi.json'), c.origin);
  });
  after(async () => {
    await prism?.stop();
    await c?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a status the operation does not list is a violation', async () => {
    const answer = await prism.send('GET', '/werke/gibt-es-nicht', { headers: JSON_ACCEPT });
    // Prism reports an unlisted error status as a warning (sl-violations) and passes it on; the
    // traffic test counts warnings as violations too.
    assert.equal(answer.status, 404);
    assert.match(
      answer.response_.map((v) => v.message).join('\n'),
      /Unable to match the returned status code/,
    );
    // The same status where it is listed passes.
    const listed = await prism.send('GET', '/personen/gibt-es-nicht', { headers: JSON_ACCEPT });
    assert.equal(listed.status, 404);
    assert.deepEqual(listed.response_, []);
  });

  test('a body the schema does not allow is a violation', async () => {
    const answer = await prism.send('GET', '/werke/faust', { headers: JSON_ACCEPT });
    assert.equal(answer.status, 500);
    assert.match(answer.response_.map((v) => `${v.location.join('.')} ${v.message}`).join('\n'), /titel/);
    const works = await prism.send('GET', '/werke', { headers: JSON_ACCEPT });
    assert.equal(works.status, 200);
    assert.deepEqual(works.response_, []);
  });
});

// The problem bodies the layer sends validate against the schemas it serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { fakeApp } from '../../../test/kit/http/fake-app.ts';
import { PROBLEM_XSD_PATH, problemSchemas } from './schema/schemas.ts';

const app = await fakeApp({ displayErrors: true });
// 404, 405, 406 (available), 410, 422 (errors), 500 (exception)
const requests = [
  { method: 'GET', url: '/katalog/nirgends' },
  { method: 'POST', url: '/katalog/personen/goethe' },
  { method: 'GET', url: '/katalog/personen/goethe', accept: 'image/png' },
  { method: 'GET', url: '/katalog/personen/schiller' },
  { method: 'PUT', url: '/katalog/personen/invalid' },
  { method: 'GET', url: '/katalog/personen/boom' },
] as const;

async function bodies(format: 'json' | 'xml'): Promise<string[]> {
  const out: string[] = [];
  for (const r of requests) {
    const accept = 'accept' in r ? `${r.accept}, application/problem+${format}` : `application/${format}`;
    const res = await app.inject({ method: r.method, url: r.url, headers: { accept } });
    assert.ok(res.statusCode >= 400, r.url);
    assert.match(String(res.headers['content-type']), new RegExp(`^application/problem\\+${format}`));
    out.push(res.body);
  }
  return out;
}

test('JSON problems validate against /schema/problem.json', async () => {
  const served = await app.inject({ url: '/katalog/schema/problem.json' });
  assert.equal(served.statusCode, 200);
  const ajv = new Ajv2020({ strict: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(served.body));
  for (const body of await bodies('json'))
    assert.ok(validate(JSON.parse(body)), `${body}\n${ajv.errorsText(validate.errors)}`);
  assert.ok(!validate({ type: 'about:blank', title: 'x', status: 999, code: 'SHELFMARK_X' }));
});

test('XML problems validate against /schema/problem.xsd (xmllint)', async () => {
  const served = await app.inject({ url: '/katalog/schema/problem.xsd' });
  assert.equal(served.body, problemSchemas().xsd);
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-problem-'));
  try {
    const files = (await bodies('xml')).map((body, i) => {
      const file = join(dir, `p${i}.xml`);
      writeFileSync(file, body);
      return file;
    });
    execFileSync('xmllint', ['--noout', '--schema', PROBLEM_XSD_PATH, ...files], { stdio: 'pipe' });
    const wrong = join(dir, 'wrong.xml');
    writeFileSync(wrong, '<problem xmlns="urn:ietf:rfc:7807"><status>999</status></problem>');
    assert.throws(() =>
      execFileSync('xmllint', ['--noout', '--schema', PROBLEM_XSD_PATH, wrong], { stdio: 'pipe' }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the problem schemas answer HEAD like GET, without a body', async () => {
  for (const url of ['/katalog/schema/problem.xsd', '/katalog/schema/problem.json']) {
    const get = await app.inject({ url });
    const head = await app.inject({ method: 'HEAD', url });
    assert.equal(head.statusCode, 200, url);
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.body, '');
  }
});

// `npm run dev` serves in one process with displayErrors on; `npm start` under the supervisor
// with it off. The 500 comes from the real application: its `persons` table is renamed away
// behind its back, so the catalogue's query fails as a broken database would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { npmScript, serve, type Served } from './spawn-serve.ts';
import { FAIL2BAN_PREFIX, grok } from '../logs/log-tools.ts';

function breakDatabase(s: Served): void {
  const db = new DatabaseSync(path.join(s.dir, 'data', 'shelfmark.db'));
  db.exec('ALTER TABLE persons RENAME TO persons_gone');
  db.close();
}

async function failingRequest(s: Served, accept: string) {
  const r = await fetch(`${s.base}/personen/goethe`, { headers: { accept } });
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
}

function oneErrorEntry(error: string[]): string {
  const entries = error.filter((l) => l.includes('[shelfmark:error]'));
  assert.equal(entries.length, 1, error.join('\n'));
  const entry = entries[0]!;
  // The innermost frame in Shelfmark's own code, a .ts file under src/, with its line.
  assert.match(
    entry,
    /\[client 127\.0\.0\.1:\d+\] \w*Error: .*no such table: persons.* in \/\S+\/src\/\S+\.ts on line \d+\\nStack trace:\\n#0 /,
  );
  assert.match(entry, FAIL2BAN_PREFIX);
  const g = grok('HTTPD24_ERRORLOG', error);
  assert.ok(g.ok, g.output);
  return entry;
}

test('npm run dev: one process, displayErrors on', async () => {
  const script = npmScript('dev');
  assert.match(script, /--workers 0\b/);
  const s = await serve(script);
  let logs;
  let where: string | undefined;
  try {
    assert.equal(s.worker, false, 'served by the process itself, no supervisor');
    const ok = await fetch(`${s.base}/personen/goethe.json`);
    assert.equal(ok.status, 200);
    breakDatabase(s);
    const json = await failingRequest(s, 'application/json');
    assert.equal(json.status, 500);
    const problem = JSON.parse(json.body);
    assert.match(problem.exception.message, /no such table: persons/);
    assert.match(problem.exception.file, /\/src\/\S+\.ts$/);
    assert.ok(problem.exception.line > 0);
    assert.ok(problem.exception.source.length > 0);
    where = ` in ${problem.exception.file} on line ${problem.exception.line}\\nStack trace:`;
  } finally {
    logs = await s.stop();
  }
  // The log and the page name the same place.
  assert.ok(where !== undefined && oneErrorEntry(logs.error).includes(where), where);
  assert.ok(
    logs.access.some((l) => / "GET \/personen\/goethe HTTP\/1\.1" 500 [1-9]\d* /.test(l)),
    `${logs.access.join('\n')}\n${logs.error.join('\n')}\n${s.output()}`,
  );
  assert.ok(
    logs.error.some((l) => /\[mpm_cluster:notice\] .*AH00163: /.test(l)),
    'start notice',
  );
  assert.ok(
    logs.error.some((l) => /\[mpm_cluster:notice\] .*AH00169: caught SIGTERM, shutting down$/.test(l)),
    `stop notice\n${logs.error.join('\n')}\n${s.output()}`,
  );
  assert.doesNotMatch(logs.error.join('\n'), /AH00052/);
});

test('npm start: displayErrors off, the 500 has an empty body and logs `500 -`', async () => {
  const s = await serve(npmScript('start'));
  let logs;
  try {
    breakDatabase(s);
    for (const accept of ['text/html', 'application/json', 'application/xml']) {
      const r = await failingRequest(s, accept);
      assert.equal(r.status, 500);
      assert.equal(r.body, '');
    }
  } finally {
    logs = await s.stop();
  }
  const entries = logs.error.filter((l) => l.includes('[shelfmark:error]'));
  assert.equal(entries.length, 3, logs.error.join('\n'));
  oneErrorEntry([entries[0]!]);
  const lines = logs.access.filter((l) => l.includes('"GET /personen/goethe HTTP/1.1"'));
  assert.equal(lines.length, 3);
  for (const l of lines) assert.match(l, /" 500 - "-" "node"$/);
});

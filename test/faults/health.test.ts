// /up under a real server (`shelfmark serve --workers 0`) on a private PostgreSQL cluster (never
// the shared one): 200 while the database answers, 503 while it is stopped, 200 again once it
// is back — and no probe ever writes an error-log entry (a load balancer asks every few
// seconds). The error log names a request only by client and Referer, so each probe carries a
// Referer of its own; a page request during the outage shows that such a request IS logged.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  privatePostgres,
  privatePostgresMissing,
  readLines,
  serveShelfmark,
  tempDir,
  until,
  type PrivatePostgres,
} from './database-support.ts';

const DATABASE = 'shelfmark_health';

function get(port: number, path: string, referer: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: false, headers: { referer, accept: 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

describe('/up under a real server', { skip: privatePostgresMissing() ?? false }, () => {
  let pg: PrivatePostgres;
  before(async () => {
    pg = await privatePostgres();
    await pg.psql(`create database ${DATABASE}`);
  });
  after(() => pg?.remove());

  test('200 while PostgreSQL answers, 503 while it is stopped, never an error-log entry', async (t) => {
    const s = await serveShelfmark({ workers: 0, databaseUrl: pg.url(DATABASE), dir: tempDir('sm-up-') });
    t.after(() => s.stop());
    const up = await get(s.port, '/up', 'http://probe.example/before');
    assert.deepEqual(up, { status: 200, body: 'up\n' });

    await pg.stop();
    const page = await get(s.port, '/personen/goethe', 'http://page.example/outage');
    assert.equal(page.status, 503, 'a page needs the database');
    for (let i = 0; i < 5; i++) {
      const down = await get(s.port, '/up', `http://probe.example/outage-${i}`);
      assert.equal(down.status, 503, down.body);
    }
    assert.ok(
      await until(() => readLines(s.errorLog).some((l) => l.includes('http://page.example/outage')), 10_000),
      `the page's 503 is in the error log:\n${readLines(s.errorLog).join('\n')}`,
    );

    await pg.start();
    assert.ok(
      await until(
        async () => (await get(s.port, '/up', 'http://probe.example/after')).status === 200,
        30_000,
      ),
      '/up is 200 again once PostgreSQL is back',
    );
    const probes = readLines(s.errorLog).filter((l) => l.includes('probe.example'));
    assert.deepEqual(probes, [], 'no probe wrote an error-log entry');
    const logged = readLines(s.accessLog).filter((l) => l.includes('"GET /up HTTP/1.1" 503'));
    assert.equal(logged.length, 5, 'each probe has its access-log line');
  });
});

// /server-status on the real server with two workers: staff only, `?auto` parses as mod_status
// output, and its counts agree with the access log — also after a worker was replaced.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { parseModStatus } from '../support/mod-status.ts';
import { readLines, serve, until, type Serve } from '../faults/support.ts';

function get(
  port: number,
  path: string,
  user?: string,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Connection: 'close', 'User-Agent': 'status-test' };
    if (user) headers.Authorization = 'Basic ' + Buffer.from(user).toString('base64');
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
  });
}

/** Sum of %b over combined-format lines (`-` is 0). */
function bodyBytes(lines: string[]): number {
  return lines.reduce((sum, line) => {
    const m = /" \d{3} (\d+|-) "/.exec(line);
    assert.ok(m, line);
    return sum + (m[1] === '-' ? 0 : Number(m[1]));
  }, 0);
}

const STAFF = 'personal:personal';

describe('/server-status with --workers 2', () => {
  let s: Serve;
  before(async () => {
    s = await serve({ workers: 2 });
  });
  after(() => s.stop());

  const load = async (n: number) => {
    const paths = ['/personen/goethe', '/werke.json', '/gibt-es-nicht', '/personen?anzahl=5'];
    for (let i = 0; i < n; i++)
      await get(s.port, `${paths[i % paths.length]}${i % 4 === 3 ? '&' : '?'}n=${i}`);
  };

  /** ?auto as staff; its counts against the access log as it was just before. */
  const checkAgainstLog = async () => {
    const lines = readLines(s.accessLog);
    const answer = await get(s.port, '/server-status?auto', STAFF);
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.type, 'text/plain; charset=ISO-8859-1');
    const status = parseModStatus(answer.body);
    assert.equal(status.number('Total Accesses'), lines.length, 'Total Accesses = access-log lines');
    assert.equal(
      status.number('Total kBytes'),
      Math.floor(bodyBytes(lines) / 1024),
      'Total kBytes = Σ %b / 1024',
    );
    assert.equal(status.fields.get('ServerMPM'), 'prefork');
    return status;
  };

  test('anonymous clients and members get 403, a wrong password 401', async () => {
    assert.equal((await get(s.port, '/server-status?auto')).status, 403);
    assert.equal((await get(s.port, '/server-status')).status, 403);
    assert.equal((await get(s.port, '/server-status?auto', 'anna:anna')).status, 403);
    assert.equal((await get(s.port, '/server-status.json', 'anna:anna')).status, 403);
    assert.equal((await get(s.port, '/server-status?auto', 'personal:wrong')).status, 401);
  });

  test('?auto parses as mod_status output and counts what the access log has, over both workers', async () => {
    await load(40);
    const status = await checkAgainstLog();
    assert.equal(status.scoreboard.length, 2, status.scoreboard);
    // The worker answering this request is busy with it.
    assert.ok(status.number('BusyWorkers') >= 1, status.scoreboard);
    assert.equal(status.host, '127.0.0.1');
  });

  test('a replaced worker’s requests still count', async () => {
    await load(12);
    const [first] = s.ready();
    process.kill(first!, 'SIGTERM');
    assert.ok(await until(() => s.ready().length >= 3, 60_000), s.output());
    await load(8);
    await checkAgainstLog();
  });

  test('the HTML page for people, and JSON with the same counts', async () => {
    const page = await get(s.port, '/server-status', STAFF);
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    assert.match(page.body, /<h1>Server-Status<\/h1>/);
    assert.match(page.body, /<pre>[_WSG.]{2,}<\/pre>/);
    const lines = readLines(s.accessLog).length;
    const json = await get(s.port, '/server-status.json', STAFF);
    assert.equal(json.status, 200);
    assert.equal((JSON.parse(json.body) as { TotalAccesses: number }).TotalAccesses, lines);
  });
});

// Signals mean what they mean to Apache httpd: USR1 graceful restart (AH00171), WINCH graceful
// stop (AH00170), HUP reopen the logs; USR2 has no meaning and is logged. Node's defaults were
// the inspector on USR1 and a silent death on USR2.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { test } from 'node:test';
import { alive, readLines, serve, startLoad, until, type Serve } from './support.ts';
import { npmScript } from '../logs-app/spawn-serve.ts';

const INSPECTOR = /Debugger listening|inspector/i;
const logged = (s: Serve, re: RegExp) => readLines(s.errorLog).some((l) => re.test(l));

test('--workers 2: USR1 under load restarts every worker gracefully, no request fails', async (t) => {
  const s = await serve({ workers: 2 });
  t.after(() => s.stop());
  const old = s.ready();
  const load = startLoad(s.port, { clients: 6 });
  try {
    assert.ok(await until(() => load.answered() >= 30, 60_000), 'answers before the restart');
    process.kill(s.pid, 'SIGUSR1');
    assert.ok(
      await until(() => s.ready().length >= 4 && !old.some(alive), 120_000),
      `new workers took over:\n${s.output()}`,
    );
    const before = load.answered();
    assert.ok(await until(() => load.answered() >= before + 30, 60_000), 'the new workers answer');
  } finally {
    await load.stop();
  }
  const failed = load.outcomes.filter((o) => o.error || o.status !== 200);
  assert.deepEqual(failed, [], `no failed request of ${load.outcomes.length}`);
  assert.ok(logged(s, /\[mpm_cluster:notice\] .*AH00171: Graceful restart requested, doing restart$/));
  assert.ok(alive(s.pid), 'the supervisor is the same process');
  assert.doesNotMatch(s.output(), INSPECTOR);
});

test('--workers 0: USR1 logs AH00171 and reopens the logs, keeps serving, no inspector', async (t) => {
  const s = await serve({ workers: 0 });
  t.after(() => s.stop());
  assert.equal((await fetch(`${s.base}/?n=1`, { headers: { 'user-agent': 'faults' } })).status, 200);
  fs.renameSync(s.accessLog, s.accessLog + '.1');
  process.kill(s.pid, 'SIGUSR1');
  assert.ok(await until(() => logged(s, /AH00171: Graceful restart requested/), 20_000), s.output());
  assert.equal((await fetch(`${s.base}/?n=2`, { headers: { 'user-agent': 'faults' } })).status, 200);
  assert.equal(readLines(s.accessLog).length, 1, 'the reopened access log has the second request');
  assert.doesNotMatch(s.output(), INSPECTOR);
});

test('USR2 to the whole process group is logged and stops nothing', async (t) => {
  const s = await serve({ workers: 2 });
  t.after(() => s.stop());
  process.kill(-s.pid, 'SIGUSR2');
  assert.ok(await until(() => logged(s, /\[mpm_cluster:notice\] .*caught SIGUSR2: /), 20_000), s.output());
  assert.ok([s.pid, ...s.ready()].every(alive), 'supervisor and workers alive');
  assert.equal((await fetch(`${s.base}/`)).status, 200);
});

/** A POST whose body is held back until `release()`; its head has been read once this resolves. */
async function heldPost(port: number): Promise<{ release(): void; response: Promise<string> }> {
  const body = JSON.stringify({ titel: 'Angehalten', exemplare: 1 });
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let data = '';
  const response = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
  });
  const continued = new Promise<void>((resolve) =>
    socket.on('data', (c: string) => {
      data += c;
      if (data.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
    }),
  );
  socket.write(
    'POST /werke?n=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: faults\r\n' +
      `Authorization: Basic ${Buffer.from('personal:personal').toString('base64')}\r\n` +
      `Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${body.length}\r\n` +
      'Expect: 100-continue\r\n\r\n',
  );
  await Promise.race([continued, response]);
  return { release: () => socket.write(body), response };
}

for (const workers of [0, 2]) {
  test(`--workers ${workers}: WINCH stops gracefully, the request in flight is answered`, async (t) => {
    const s = await serve({ workers });
    t.after(() => s.stop());
    const held = await heldPost(s.port);
    process.kill(s.pid, 'SIGWINCH');
    assert.ok(
      await until(() => logged(s, /AH00170: caught SIGWINCH, shutting down gracefully$/), 20_000),
      s.output(),
    );
    held.release();
    const response = await Promise.race([
      held.response,
      new Promise<string>((r) => setTimeout(r, 30_000, '')),
    ]);
    assert.match(response, /\r\n\r\nHTTP\/1\.1 201 Created\r\n/, response);
    assert.match(response, /\r\nConnection: close\r\n/i);
    assert.equal(await s.exited(30_000), 'code 0');
    assert.ok(!s.ready().some(alive), 'workers gone');
    assert.ok(readLines(s.accessLog).some((l) => l.includes('"POST /werke?n=1 HTTP/1.1" 201 ')));
  });
}

test('npm run debug: the inspector stays open, USR1 is the graceful restart', async (t) => {
  // The script's own --inspect, on a free port (NODE_OPTIONS sets the port, not the switch).
  const s = await serve({ workers: 0, shell: npmScript('debug'), env: { NODE_OPTIONS: '--inspect-port=0' } });
  t.after(() => s.stop());
  const port = Number(/Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(s.output())?.[1]);
  assert.ok(port > 0, s.output());
  const inspector = async () => (await fetch(`http://127.0.0.1:${port}/json/version`)).status;
  assert.equal(await inspector(), 200);
  // sh may have started node as its child rather than exec'd it.
  const children = execFileSync('pgrep', ['-P', String(s.pid)], { encoding: 'utf8' }).match(/\d+/g);
  const node = Number(children?.[0] ?? s.pid);
  process.kill(node, 'SIGUSR1');
  assert.ok(await until(() => logged(s, /AH00171: Graceful restart requested/), 20_000), s.output());
  assert.equal(await inspector(), 200);
  assert.equal((await fetch(`${s.base}/`)).status, 200);
});

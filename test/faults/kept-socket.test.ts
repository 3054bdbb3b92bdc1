// The port never refuses a connection while workers are replaced (ADR 0087): the supervisor
// keeps the listening socket, as httpd's parent does. Before, node:cluster closed the socket
// when its last worker went, so every connection until the replacement listened was refused
// (ECONNREFUSED) — hundreds a run when a worker was killed every few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { ROOT, serve, startLoad, tempDir, until } from './support.ts';

test('--workers 1, the worker killed twice under load: no connection refused, every request answered', async (t) => {
  const s = await serve({ workers: 1 });
  t.after(() => s.stop());
  // A refused connection is retried after a pause, so the clients never spin while no worker runs.
  const load = startLoad(s.port, { clients: 4, timeoutMs: 60_000, pauseOnErrorMs: 20 });
  t.after(() => load.stop());
  for (let kill = 1; kill <= 2; kill++) {
    // Some answers from the current worker first, so the kill lands under load.
    const answered = load.answered();
    assert.ok(await until(() => load.answered() >= answered + 20, 60_000), 'the worker answers');
    const victim = s.ready().at(-1)!;
    process.kill(victim, 'SIGKILL');
    // Requests keep arriving while no worker runs; the replacement's ready line ends the gap.
    assert.ok(
      await until(() => s.ready().length > kill, 90_000),
      `worker ${kill + 1} starts:\n${s.output()}`,
    );
  }
  const answered = load.answered();
  assert.ok(await until(() => load.answered() >= answered + 20, 60_000), 'the last worker answers');
  await load.stop();
  const refused = load.outcomes.filter((o) => o.error === 'ECONNREFUSED');
  assert.deepEqual(refused, [], `${refused.length} of ${load.outcomes.length} connections refused`);
  // A request in flight in a killed worker may be reset; one that waited for a worker is answered.
  const failed = load.outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNRESET');
  assert.deepEqual(failed, [], 'no request timed out or failed otherwise');
  assert.ok(load.outcomes.every((o) => o.error !== undefined || o.status === 200));
});

test('a stopped supervisor closes the port: connections are refused, not left waiting', async () => {
  const s = await serve({ workers: 1 });
  await s.stop();
  const error = await new Promise<string>((resolve) => {
    const socket = net.connect(s.port, '127.0.0.1', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? String(e)));
  });
  assert.equal(error, 'ECONNREFUSED');
});

test('the port in use: the supervisor says so as httpd does (AH00072, AH00451) and exits 1', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const dir = tempDir('shelfmark-kept-socket-');
    const run = spawnSync(
      process.execPath,
      ['src/cli/shelfmark.ts', 'serve', '--workers', '1', '--port', String(port), '--no-demo'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, SHELFMARK_DATA_DIR: dir, SHELFMARK_LOG_DIR: dir },
      },
    );
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /could not bind to address 127\.0\.0\.1:\d+/);
    const log = fs.readFileSync(path.join(dir, 'error.log'), 'latin1');
    assert.match(
      log,
      /\[core:emerg\] \[pid \d+:tid \d+\] \(98\)Address already in use: AH00072: make_sock: could not bind to address 127\.0\.0\.1:\d+\n/,
    );
    assert.match(
      log,
      /\[core:alert\] \[pid \d+:tid \d+\] AH00451: no listening sockets available, shutting down\n/,
    );
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

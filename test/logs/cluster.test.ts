// The supervised server under load: every request logged exactly once across worker
// processes, across a log rotation (SIGHUP), across a graceful stop (SIGTERM), and a killed
// worker is logged and replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { load } from './load-client.ts';

const FIXTURE = new URL('./cluster-fixture.ts', import.meta.url).pathname;
const LINE = /^127\.0\.0\.1 - - \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "GET \/ok\.php\?id=(\d+) HTTP\/1\.1" 200 12 "-" "-"$/;

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function start(workers = 2): Promise<{ child: ChildProcess; port: number; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cluster-'));
  const port = await freePort();
  const child = spawn(process.execPath, [FIXTURE, String(port), dir, String(workers)], { stdio: 'inherit' });
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((r) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), r(true)));
      s.on('error', () => r(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300)); // let the second worker listen too
  return { child, port, dir };
}

function get(port: number, p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: p, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

function stopAndWait(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => {
    child.once('exit', (code) => r(code));
    child.kill('SIGTERM');
  });
}

function idsIn(file: string): number[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'latin1')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const m = LINE.exec(l);
      assert.ok(m, `well-formed line: ${l}`);
      return Number(m[1]);
    });
}

function assertExactlyOnce(ids: number[], expected: Iterable<number>, total: number): void {
  const seen = new Set<number>();
  for (const id of ids) {
    assert.ok(!seen.has(id), `request ${id} logged twice`);
    seen.add(id);
  }
  for (const id of expected) assert.ok(seen.has(id), `answered request ${id} is logged`);
  assert.ok(seen.size <= total);
}

test('2 workers, 20,000 requests over 64 connections, SIGHUP rotation in the middle', async () => {
  const { child, port, dir } = await start(2);
  const access = path.join(dir, 'access.log');
  let rotated = false;
  const result = await load(port, 20_000, 64, (done) => {
    if (done === 8000 && !rotated) {
      rotated = true;
      fs.renameSync(access, access + '.1'); // logrotate (create mode) moves the file …
      child.kill('SIGHUP'); // … and signals the server
    }
  });
  assert.equal(result.failed, 0);
  assert.equal(result.answered.size, 20_000);
  assert.equal(await stopAndWait(child), 0);
  const before = idsIn(access + '.1');
  const afterRotation = idsIn(access);
  assert.ok(before.length > 0 && afterRotation.length > 0, `both files hold lines: ${before.length} / ${afterRotation.length}`);
  assert.equal(before.length + afterRotation.length, 20_000);
  assertExactlyOnce([...before, ...afterRotation], result.answered, 20_000);
  const errors = fs.readFileSync(path.join(dir, 'error.log'), 'latin1');
  assert.match(errors, /\[mpm_cluster:notice\] \[pid \d+:tid \d+\] AH00163: Shelfmark\/test configured -- resuming normal operations/);
  assert.match(errors, /\[mpm_cluster:notice\] \[pid \d+:tid \d+\] AH00169: caught SIGTERM, shutting down/);
});

test('SIGTERM during load: every answered request is logged, exit status 0', async () => {
  const { child, port, dir } = await start(2);
  let stopped: Promise<number | null> | undefined;
  const result = await load(port, 6000, 64, (done) => {
    if (done === 2000) stopped = stopAndWait(child);
  });
  assert.equal(await stopped, 0);
  assert.ok(result.answered.size >= 2000);
  assertExactlyOnce(idsIn(path.join(dir, 'access.log')), result.answered, 6000);
});

test('a worker killed during load is logged and replaced; an uncaught error outside a request too', async () => {
  const { child, port, dir } = await start(2);
  const victim = Number(await get(port, '/pid'));
  const result = await load(port, 4000, 16, (done) => {
    if (done === 1000) process.kill(victim, 'SIGKILL');
  });
  assert.ok(result.answered.size > 3000);
  await get(port, '/crash');
  await new Promise((r) => setTimeout(r, 500));
  // the replacement workers serve
  const after = await load(port, 500, 8);
  assert.equal(after.answered.size, 500);
  assert.equal(await stopAndWait(child), 0);
  const errors = fs.readFileSync(path.join(dir, 'error.log'), 'latin1');
  assert.match(errors, new RegExp(`\\[core:notice\\] \\[pid \\d+:tid \\d+\\] AH00052: child pid ${victim} exit signal Killed \\(9\\)`));
  assert.match(errors, /\[shelfmark:error\] \[pid \d+:tid \d+\] Uncaught TypeError: worker crash outside a request in \/\S+\/test\/logs\/cluster-fixture\.ts on line \d+\\nStack trace:\\n#0 /);
  assert.match(errors, /AH00052: child pid \d+ exit status 1/);
});

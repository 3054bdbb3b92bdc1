// Fault: a reader of the live error log loses the staff role while streaming. The stream
// re-checks access (here every 100 ms) and ends; a reconnect is refused with 403.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startRealApp, type RealApp } from '../logs-app/real-app.ts';
import { runCommand } from '../support/run-command.ts';

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:${user}`).toString('base64');
const CLI = path.resolve(import.meta.dirname, '../../src/cli/shelfmark.ts');

let app: RealApp;
before(async () => {
  app = await startRealApp({ demo: true, logLevel: 'warn', liveAccessCheckMs: 100 });
});
after(() => app.stop());

/** Opens the stream; resolves with its status and a promise of everything it sent until it ended. */
function openStream(
  user: string,
): Promise<{ status: number; following: Promise<void>; ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${app.base}/protokoll/fehler/live`,
      { headers: { Accept: 'text/event-stream', Authorization: basic(user) } },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        let markFollowing: () => void = () => {};
        const following = new Promise<void>((done) => (markFollowing = done));
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes(': following')) markFollowing();
        });
        const ended = new Promise<string>((done) => res.on('close', () => done(text)));
        resolve({ status: res.statusCode ?? 0, following, ended });
      },
    );
    req.on('error', reject);
    // Bounded: whatever happens, the request is gone after 30 s.
    req.setTimeout(30_000, () => req.destroy());
  });
}

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test('the live stream ends once the reader is no longer staff; reconnecting is refused', async () => {
  const stream = await openStream('personal');
  assert.equal(stream.status, 200);
  await within(10_000, stream.following, 'following');
  // The last staff account cannot be demoted (ADR 0077): anna becomes staff first.
  const promoted = await runCommand(process.execPath, [
    CLI,
    'user',
    'role',
    'anna',
    'staff',
    '--data-dir',
    app.config.dataDir,
  ]);
  assert.equal(promoted.code, 0, promoted.stderr);
  const cli = await runCommand(process.execPath, [
    CLI,
    'user',
    'role',
    'personal',
    'member',
    '--data-dir',
    app.config.dataDir,
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  const sent = await within(20_000, stream.ended, 'the stream did not end');
  assert.match(sent, /event: forbidden\n/);
  const again = await fetch(`${app.base}/protokoll/fehler/live`, {
    headers: { Accept: 'text/event-stream', Authorization: basic('personal') },
  });
  assert.equal(again.status, 403);
  await again.body?.cancel();
});

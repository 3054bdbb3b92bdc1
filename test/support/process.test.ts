import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { freePort, startProcess } from './process.ts';

// A stand-in server: listens on PORT, says so on stdout, and echoes a line on stderr first.
const server = `
  const net = require('node:net');
  console.error('starting up');
  net.createServer((s) => s.end('hello')).listen(Number(process.env.PORT), '127.0.0.1', () =>
    console.log('listening on http://127.0.0.1:' + process.env.PORT));
`;

test('freePort gives a port that can be listened on', async () => {
  const port = await freePort();
  assert.ok(port > 0 && port < 65536);
  const listener = createServer();
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, '127.0.0.1', resolve);
  });
  await new Promise((resolve) => listener.close(resolve));
});

test('startProcess waits for the ready line and stop() ends the process', async () => {
  const port = await freePort();
  const started = await startProcess(
    process.execPath,
    ['-e', server],
    { PORT: String(port) },
    /listening on (\S+)/,
  );
  assert.equal(started.ready[1], `http://127.0.0.1:${port}`);
  assert.match(started.output(), /starting up/);
  assert.equal(started.child.exitCode, null);
  await started.stop();
  assert.equal(started.child.signalCode, 'SIGTERM');
});

test('startProcess with a test context stops the process when the test ends', async (t) => {
  let started: Awaited<ReturnType<typeof startProcess>> | undefined;
  await t.test('inner', async (inner) => {
    const port = await freePort();
    started = await startProcess(process.execPath, ['-e', server], { PORT: String(port) }, /listening/, {
      t: inner,
    });
    assert.equal(started.child.exitCode, null);
  });
  assert.ok(started);
  const { child } = started;
  if (child.exitCode === null && child.signalCode === null)
    await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(started.child.signalCode, 'SIGTERM');
});

test('startProcess kills with SIGKILL a process that ignores SIGTERM', async () => {
  const stubborn = "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);";
  const started = await startProcess(process.execPath, ['-e', stubborn], {}, /^ready$/);
  await started.stop(200);
  assert.equal(started.child.signalCode, 'SIGKILL');
});

test('startProcess rejects with the output when the process exits before it is ready', async () => {
  const script = "console.error('config error: PORT must be a whole number'); process.exit(2)";
  await assert.rejects(
    startProcess(process.execPath, ['-e', script], {}, /listening/),
    /exited \(code 2\) before it was ready[\s\S]*PORT must be a whole number/,
  );
});

test('startProcess rejects and kills the process when no ready line comes', async () => {
  const silent = "console.log('still booting'); setInterval(() => {}, 1000);";
  await assert.rejects(
    startProcess(process.execPath, ['-e', silent], {}, /listening/, { readyTimeoutMs: 5000 }),
    /no line matched \/listening\/[\s\S]*still booting/,
  );
});

test('startProcess passes env over the inherited environment and can remove variables', async () => {
  const script =
    "console.log('A=' + process.env.A + ' HOME=' + process.env.HOME + ' PATH=' + Boolean(process.env.PATH))";
  const started = await startProcess(process.execPath, ['-e', script], { A: 'x', HOME: undefined }, /^A=/);
  assert.equal(started.ready.input, 'A=x HOME=undefined PATH=true');
  await started.stop();
});

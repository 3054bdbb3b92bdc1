// Helpers for tests that talk to a real server process: a free port, and a child process
// that is started, awaited until it says it is ready, and always killed afterwards.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

export type StartedProcess = {
  child: ChildProcess;
  /** The match of readyRegex in the output, e.g. to read the URL the server printed. */
  ready: RegExpMatchArray;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output: () => string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves when it is gone. */
  stop: (graceMs?: number) => Promise<void>;
};

export type StartOptions = {
  /** Registers stop() with t.after(), so the process dies when the test (or suite) ends. */
  t?: Pick<TestContext, 'after'>;
  /** How long to wait for the ready line before giving up (default 30 s). */
  readyTimeoutMs?: number;
  cwd?: string;
};

const running = new Set<ChildProcess>();
// Last line of defence: whatever still runs when the test file's process exits is killed.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Spawns `cmd args` with `env` laid over process.env (a value of undefined removes the
 * variable) and resolves once a line of its stdout or stderr matches `readyRegex`. Rejects,
 * with the output so far, when the process exits or the timeout passes first.
 */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
  readyRegex: RegExp,
  options: StartOptions = {},
): Promise<StartedProcess> {
  const child = spawn(cmd, args, {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    const done = (): void => {
      running.delete(child);
      resolve();
    };
    if (child.exitCode !== null || child.signalCode !== null) done();
    child.once('exit', done);
  });

  let output = '';
  const stop = async (graceMs = 5000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  options.t?.after(() => stop());

  return new Promise((resolve, reject) => {
    let pending = '';
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() =>
        reject(new Error(`${cmd} ${args.join(' ')}: ${why}\n--- output ---\n${output}`)),
      );
    };
    const timer = setTimeout(
      () => fail(`no line matched ${readyRegex} within ${options.readyTimeoutMs ?? 30000} ms`),
      options.readyTimeoutMs ?? 30000,
    );
    const onData = (chunk: string): void => {
      output += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const ready = line.match(readyRegex);
        if (ready && !settled) {
          settled = true;
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          child.stderr?.off('data', onData);
          // Keep draining (and recording) output so the child never blocks on a full pipe.
          child.stdout?.on('data', (more: string) => (output += more));
          child.stderr?.on('data', (more: string) => (output += more));
          child.off('exit', onExit);
          resolve({ child, ready, output: () => output, stop });
          return;
        }
      }
    };
    const onExit = (code: number | null, signal: string | null): void =>
      fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
  });
}

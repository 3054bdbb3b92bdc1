// Helpers for the HTTP fault tests: the real application in this process (short timeouts
// through `limits`), a raw TCP client that sends bytes on a script (pauses, half-close, reset)
// and collects what comes back, and checks on the logs written meanwhile.
import assert from 'node:assert/strict';
import net from 'node:net';
import { readLines, startRealApp, type RealApp } from '../logs-app/real-app.ts';
import { parseCombined, TIME_SHAPE, type CombinedFields } from '../logs/combined-line.ts';
import type { ServerLimits } from '../../src/server/index.ts';

export type { RealApp };

export function startFaultApp(limits: Partial<ServerLimits> = {}): Promise<RealApp> {
  return startRealApp({ logLevel: 'debug', limits });
}

/** One step of a raw client: bytes to write, a pause (ms), a half-close or a reset. */
export type Step = string | Buffer | { pause: number } | 'end' | 'reset';

export interface Exchange {
  /** Everything the server sent (latin1). */
  readonly answer: string;
  /** The server closed the connection before the client gave up. */
  readonly closedByServer: boolean;
  /** The server closed before the script was done (later writes went nowhere). */
  readonly closedEarly: boolean;
}

/** Runs `steps` on a new connection to 127.0.0.1:`port`; gives up `graceMs` after the last. */
export function exchange(port: number, steps: readonly Step[], graceMs = 2000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = false;
    let scriptDone = false;
    let closedEarly = false;
    let giveUp: NodeJS.Timeout | undefined;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('end', () => (closedByServer = true));
    socket.on('close', (hadError) => {
      if (giveUp) clearTimeout(giveUp);
      if (!scriptDone) closedEarly = true;
      if (hadError && !scriptDone) closedByServer = true;
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), closedByServer, closedEarly });
    });
    socket.once('connect', () => void run());
    const run = async (): Promise<void> => {
      for (const step of steps) {
        if (socket.destroyed) break;
        if (step === 'end') socket.end();
        else if (step === 'reset') socket.resetAndDestroy();
        else if (typeof step === 'object' && 'pause' in step)
          await new Promise((r) => setTimeout(r, step.pause));
        else socket.write(step);
      }
      scriptDone = true;
      giveUp = setTimeout(() => socket.destroy(), graceMs);
    };
  });
}

/** Drips `body` one byte every `everyMs` (at most `body.length` steps). */
export function drip(body: string, everyMs: number): Step[] {
  return [...body].flatMap((ch) => [{ pause: everyMs }, ch]);
}

export interface Logs {
  readonly access: string[];
  readonly error: string[];
}

/** Both logs as written so far (flushed first). */
export function readLogs(app: RealApp): Logs {
  app.running.flushLogsSync();
  return { access: readLines(app.config.accessLog), error: readLines(app.config.errorLog) };
}

/**
 * The lines written after `since`, once the access line for `request` is among them (the line
 * is written when the response closes, a moment after the client saw the connection end);
 * polled every 50 ms, at most 5 s.
 */
export async function linesFor(app: RealApp, request: string, since: Logs): Promise<Logs> {
  let now = readLogs(app);
  for (let i = 0; i < 100 && !now.access.some((l) => l.includes(`"${request}"`)); i++) {
    await new Promise((r) => setTimeout(r, 50));
    now = readLogs(app);
  }
  return { access: now.access.slice(since.access.length), error: now.error.slice(since.error.length) };
}

/** The server still answers a plain GET (it kept serving through the fault). */
export async function assertServes(app: RealApp): Promise<void> {
  const res = await fetch(app.base + '/', { headers: { accept: 'text/html' } });
  await res.arrayBuffer();
  assert.equal(res.status, 200);
}

/** The one access-log line whose request line is `request`, parsed as Apache combined. */
export function accessLine(lines: readonly string[], request: string): CombinedFields {
  const matching = lines.map(parseCombined).filter((f) => f?.r === request);
  assert.equal(matching.length, 1, `one line for ${request}:\n${lines.join('\n')}`);
  const fields = matching[0]!;
  assert.match(fields.t, TIME_SHAPE);
  return fields;
}

/** Every access-log line parses as combined, and names the real client. */
export function assertCombined(lines: readonly string[]): void {
  for (const line of lines) {
    const fields = parseCombined(line);
    assert.ok(fields, `not Apache combined: ${line}`);
    assert.equal(fields.h, '127.0.0.1', line);
  }
}

/** Error-log entries: at most `max`, none with a stack trace, every one for the real client. */
export function assertErrorLog(lines: readonly string[], max: number): void {
  const entries = lines.filter((l) => !/\[mpm_|AH00163|AH00094|AH00169|resuming normal operations/.test(l));
  assert.ok(entries.length <= max, `at most ${max} entries:\n${entries.join('\n')}`);
  for (const line of entries) {
    assert.doesNotMatch(line, /Stack trace|\\n#\d| {4}at /, line);
    if (/\[client /.test(line)) assert.match(line, /\[client 127\.0\.0\.1:\d+\]/, line);
  }
}

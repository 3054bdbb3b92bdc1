// The status of a server that is one process (--workers 0): its own slot, busy or waiting.
import os from 'node:os';
import type { ServerStatus } from './report.ts';
import type { ProcessScoreboard } from './scoreboard.ts';

export const NO_TOTALS = { accesses: 0, bytes: 0, durationMs: 0, cpuUser: 0, cpuSystem: 0 } as const;

export function loadAverage(): [number, number, number] {
  const [a = 0, b = 0, c = 0] = os.loadavg();
  return [a, b, c];
}

export function singleProcessStatus(
  board: ProcessScoreboard,
  opts: { readonly serverVersion: string; readonly startMs: number },
): ServerStatus {
  const snapshot = board.snapshot();
  return {
    serverVersion: opts.serverVersion,
    startMs: opts.startMs,
    restartMs: opts.startMs,
    nowMs: Date.now(),
    generation: 0,
    slots: [{ state: snapshot.busy > 0 ? 'W' : '_', snapshot }],
    gone: NO_TOTALS,
    load: loadAverage(),
  };
}

// A whole server's status as the supervisor would report it, for the /server-status tests.
import type { ServerStatus } from '../../../src/logging/index.ts';

export const STAFF = { id: 9, username: 'personal', role: 'staff' as const };
export const MEMBER = { id: 1, username: 'goethe', role: 'member' as const };

const slot = (pid: number, accesses: number, busy: number) => ({
  pid,
  accesses,
  bytes: accesses * 2048,
  durationMs: accesses * 3,
  busy,
  cpuUser: 1.5,
  cpuSystem: 0.25,
});

export const SAMPLE_STATUS: ServerStatus = {
  serverVersion: 'Shelfmark/0.1.0 (Node.js v24.0.0)',
  startMs: Date.UTC(2026, 10, 22, 12, 0, 0),
  restartMs: Date.UTC(2026, 10, 22, 12, 30, 0),
  nowMs: Date.UTC(2026, 10, 22, 13, 0, 0),
  generation: 1,
  slots: [
    { state: 'W', snapshot: slot(101, 40, 1) },
    { state: '_', snapshot: slot(102, 60, 0) },
    { state: 'S' },
  ],
  gone: { accesses: 20, bytes: 4096, durationMs: 100, cpuUser: 1, cpuSystem: 1 },
  load: [0.25, 0.5, 1],
};

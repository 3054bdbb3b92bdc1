// /server-status under the supervisor (docs/decisions/0015-server-status.md). Each worker
// counts its own requests (src/server/status); the supervisor keeps a slot per worker, like
// httpd's scoreboard in shared memory, and answers a worker's "status?" by asking every live
// worker for its counts at that moment (waiting at most COLLECT_MS for them). A worker also
// reports its counts once a second while they change and when it stops, so what a worker had
// counted survives it (a worker killed outright loses at most its last second).
import cluster, { type Worker } from 'node:cluster';
import {
  loadAverage,
  NO_TOTALS,
  type ProcessScoreboard,
  type ServerStatus,
  type SlotSnapshot,
  type StatusSlot,
  type Totals,
} from '../logging/index.ts';

type ToPrimary =
  { shelfmark: 'status?'; id: number } | { shelfmark: 'slot'; id?: number; snapshot: SlotSnapshot | null };
type ToWorker =
  { shelfmark: 'snapshot?'; id: number } | { shelfmark: 'status'; id: number; status: ServerStatus };

const COLLECT_MS = 1000;
const PUSH_MS = 1000;

interface Slot {
  worker: Worker;
  listening: boolean;
  retiring: boolean;
  snapshot: SlotSnapshot | undefined;
}

/** The supervisor's side: call its methods as workers come and go. */
export interface StatusBoard {
  forked(worker: Worker): void;
  listening(worker: Worker): void;
  retiring(worker: Worker): void;
  exited(worker: Worker): void;
  restarted(): void;
}

const add = (t: Totals, s: SlotSnapshot): Totals => ({
  accesses: t.accesses + s.accesses,
  bytes: t.bytes + s.bytes,
  durationMs: t.durationMs + s.durationMs,
  cpuUser: t.cpuUser + s.cpuUser,
  cpuSystem: t.cpuSystem + s.cpuSystem,
});

export function superviseStatus(opts: {
  readonly workers: number;
  readonly serverVersion: string;
}): StatusBoard {
  const slots = new Map<number, Slot>();
  const startMs = Date.now();
  let restartMs = startMs;
  let generation = 0;
  let gone: Totals = NO_TOTALS;
  let nextId = 1;
  const waiting = new Map<number, { left: Set<number>; done: () => void }>();

  const stateOf = (slot: Slot): StatusSlot['state'] => {
    if (slot.retiring) return 'G';
    if (!slot.listening) return 'S';
    return (slot.snapshot?.busy ?? 0) > 0 ? 'W' : '_';
  };
  const status = (): ServerStatus => {
    const live: StatusSlot[] = [...slots.values()]
      .sort((a, b) => a.worker.id - b.worker.id)
      .map((s) => ({ state: stateOf(s), snapshot: s.snapshot }));
    const open: StatusSlot[] = Array.from({ length: Math.max(0, opts.workers - live.length) }, () => ({
      state: '.',
    }));
    return {
      serverVersion: opts.serverVersion,
      startMs,
      restartMs,
      nowMs: Date.now(),
      generation,
      slots: [...live, ...open],
      gone,
      load: loadAverage(),
    };
  };
  /** Asks every connected worker for its counts; resolves when all answered or after COLLECT_MS. */
  const collect = (): Promise<void> =>
    new Promise((resolve) => {
      const id = nextId++;
      const left = new Set<number>();
      for (const slot of slots.values()) {
        if (!slot.worker.isConnected()) continue;
        left.add(slot.worker.id);
        slot.worker.send({ shelfmark: 'snapshot?', id } satisfies ToWorker);
      }
      const timer = setTimeout(() => done(), COLLECT_MS);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      };
      if (left.size === 0) return done();
      waiting.set(id, { left, done });
    });

  cluster.on('message', (worker: Worker, msg: ToPrimary) => {
    const slot = slots.get(worker.id);
    if (msg?.shelfmark === 'slot') {
      if (slot && msg.snapshot) slot.snapshot = msg.snapshot;
      const asked = msg.id === undefined ? undefined : waiting.get(msg.id);
      if (asked) {
        asked.left.delete(worker.id);
        if (asked.left.size === 0) asked.done();
      }
    } else if (msg?.shelfmark === 'status?') {
      void collect().then(() => {
        if (worker.isConnected())
          worker.send({ shelfmark: 'status', id: msg.id, status: status() } satisfies ToWorker);
      });
    }
  });

  return {
    forked: (worker) =>
      void slots.set(worker.id, { worker, listening: false, retiring: false, snapshot: undefined }),
    listening(worker) {
      const slot = slots.get(worker.id);
      if (slot) slot.listening = true;
    },
    retiring(worker) {
      const slot = slots.get(worker.id);
      if (slot) slot.retiring = true;
    },
    exited(worker) {
      const slot = slots.get(worker.id);
      slots.delete(worker.id);
      if (slot?.snapshot) gone = add(gone, slot.snapshot);
      for (const asked of waiting.values()) {
        asked.left.delete(worker.id);
        if (asked.left.size === 0) asked.done();
      }
    },
    restarted() {
      generation++;
      restartMs = Date.now();
    },
  };
}

/** A worker's side: answers the supervisor's questions and asks it for the whole server's status. */
export interface StatusChannel {
  /** The whole server's status (rejects when the supervisor does not answer within 5 s). */
  request(): Promise<ServerStatus>;
  /** Sends the final counts (call after the server stopped, before exiting). */
  final(): Promise<void>;
}

export function reportToSupervisor(board: ProcessScoreboard): StatusChannel {
  let nextId = 1;
  const pending = new Map<number, (status: ServerStatus) => void>();
  const send = (msg: ToPrimary): Promise<void> =>
    new Promise((resolve) => {
      if (!process.send || !process.connected) return resolve();
      process.send(msg, undefined, {}, () => resolve());
    });
  process.on('message', (msg: ToWorker) => {
    if (msg?.shelfmark === 'snapshot?')
      void send({ shelfmark: 'slot', id: msg.id, snapshot: board.snapshot() });
    else if (msg?.shelfmark === 'status') pending.get(msg.id)?.(msg.status);
  });
  let reported = -1;
  const push = setInterval(() => {
    const snapshot = board.snapshot();
    if (snapshot.accesses === reported && snapshot.busy === 0) return;
    reported = snapshot.accesses;
    void send({ shelfmark: 'slot', snapshot });
  }, PUSH_MS);
  push.unref();
  return {
    request: () =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('the supervisor did not answer the status request within 5 s'));
        }, 5000);
        pending.set(id, (status) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(status);
        });
        void send({ shelfmark: 'status?', id });
      }),
    final() {
      clearInterval(push);
      return send({ shelfmark: 'slot', snapshot: board.snapshot() });
    },
  };
}

// Runs the check-then-write of the catalogue one at a time within this process, per key.
// Correctness does not depend on it: the stores' compare-and-set refuses a write whose row
// changed after its preconditions were checked, in any process (ADR 0021), and the database
// orders writers by subject (ADR 0088). It is kept because it keeps this process's own writes
// from racing each other — for generated slugs (which would surface as 409/500 from the UNIQUE
// index) and into compare-and-set losses that cost a second round (ADR 0023).
//
// A key is held exclusively or shared (ADR 0104): writes of one work hold the catalogue shared
// and their own work exclusively, so writers of different works run side by side, while a write
// that may touch anything (a person's rename rewrites its works) holds the catalogue
// exclusively. Waiters are served in arrival order, so a stream of shared holders cannot starve
// an exclusive one. Keys are always taken in the order given, catalogue first: no cycle.

export type LockMode = 'shared' | 'exclusive';

/** A key and how it is held. */
export interface LockClaim {
  readonly key: string;
  readonly mode: LockMode;
}

interface Waiter {
  readonly mode: LockMode;
  readonly grant: () => void;
}

interface KeyState {
  shared: number;
  exclusive: boolean;
  readonly queue: Waiter[];
}

const keys = new Map<string, KeyState>();

function grantable(state: KeyState, mode: LockMode): boolean {
  return !state.exclusive && (mode === 'shared' || state.shared === 0);
}

function take(state: KeyState, mode: LockMode): void {
  if (mode === 'shared') state.shared += 1;
  else state.exclusive = true;
}

/** Takes the key, at once when it is free and nobody waits; else the promise resolves when granted. */
function acquire({ key, mode }: LockClaim): Promise<void> | undefined {
  let state = keys.get(key);
  if (!state) {
    state = { shared: 0, exclusive: false, queue: [] };
    keys.set(key, state);
  }
  if (state.queue.length === 0 && grantable(state, mode)) {
    take(state, mode);
    return undefined;
  }
  const queue = state.queue;
  return new Promise((grant) => queue.push({ mode, grant }));
}

function release({ key, mode }: LockClaim): void {
  const state = keys.get(key)!;
  if (mode === 'shared') state.shared -= 1;
  else state.exclusive = false;
  while (state.queue.length > 0 && grantable(state, state.queue[0]!.mode)) {
    const next = state.queue.shift()!;
    take(state, next.mode);
    next.grant();
  }
  if (state.shared === 0 && !state.exclusive && state.queue.length === 0) keys.delete(key);
}

/** Runs `work` holding every claim, taken in the order given and given back in reverse. */
export async function holding<T>(claims: readonly LockClaim[], work: () => Promise<T>): Promise<T> {
  let held = 0;
  try {
    for (const claim of claims) {
      const waiting = acquire(claim);
      held += 1;
      if (waiting) await waiting;
    }
    return await work();
  } finally {
    for (let i = held - 1; i >= 0; i--) release(claims[i]!);
  }
}

/** Runs `work` holding `key` exclusively: one at a time per key within this process. */
export function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  return holding([{ key, mode: 'exclusive' }], work);
}

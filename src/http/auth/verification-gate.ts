// Bounds the password hashing one client address can cause in this process (random Basic
// credentials from 200 connections once pushed real log-ins to 8–9 s): `perAddress` at a time,
// `queuePerAddress` waiting (they re-check the limiter), beyond that refused like a limited one.

export interface GateOptions {
  readonly perAddress?: number;
  readonly queuePerAddress?: number;
  /** Bound on addresses tracked at once (each entry lives only while it has work). */
  readonly maxAddresses?: number;
}

interface Lane {
  running: number;
  readonly waiting: (() => void)[];
}

export class VerificationGate {
  readonly #perAddress: number;
  readonly #queue: number;
  readonly #maxAddresses: number;
  readonly #lanes = new Map<string, Lane>();

  constructor(options: GateOptions = {}) {
    this.#perAddress = options.perAddress ?? 2;
    this.#queue = options.queuePerAddress ?? 16;
    this.#maxAddresses = options.maxAddresses ?? 10_000;
  }

  /** A release function once this address may verify, or null: refuse the attempt now. */
  async enter(address: string): Promise<(() => void) | null> {
    let lane = this.#lanes.get(address);
    if (!lane) {
      if (this.#lanes.size >= this.#maxAddresses) return null;
      lane = { running: 0, waiting: [] };
      this.#lanes.set(address, lane);
    }
    if (lane.running >= this.#perAddress) {
      if (lane.waiting.length >= this.#queue) return null;
      const current = lane;
      await new Promise<void>((resolve) => current.waiting.push(resolve));
    }
    lane.running++;
    return this.#releaser(address, lane);
  }

  #releaser(address: string, lane: Lane): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.running--;
      const next = lane.waiting.shift();
      if (next) next();
      else if (lane.running === 0) this.#lanes.delete(address);
    };
  }
}

// mod_reqtimeout's body stage (`body=20,MinRate=500`): a request body must arrive within
// `bodyTimeoutMs`, and every byte received moves that deadline on by 1/`bodyMinRate` s, so a
// client that keeps sending at least `bodyMinRate` bytes a second is never cut off while one
// that drips a byte every few seconds is (httpd answers 408 and logs AH01382).

export interface BodyRate {
  /** Time allowed for the body before any byte arrives (0: no body timeout). */
  readonly bodyTimeoutMs: number;
  /** Bytes per second that each extend the deadline by one second's share (0: no extension). */
  readonly bodyMinRate: number;
}

export class BodyClock {
  private deadline: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly msPerByte: number;
  private readonly onTimeout: () => void;
  private readonly now: () => number;

  constructor(rate: BodyRate, onTimeout: () => void, now: () => number = () => performance.now()) {
    this.onTimeout = onTimeout;
    this.now = now;
    this.deadline = now() + rate.bodyTimeoutMs;
    this.msPerByte = rate.bodyMinRate > 0 ? 1000 / rate.bodyMinRate : 0;
    this.arm();
  }

  /** `n` more body bytes arrived. */
  received(n: number): void {
    this.deadline += n * this.msPerByte;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  // One timer per body, re-armed to the (moved) deadline instead of being reset on every chunk.
  private arm(): void {
    const left = this.deadline - this.now();
    if (left <= 0) {
      this.timer = undefined;
      return this.onTimeout();
    }
    this.timer = setTimeout(() => this.arm(), Math.ceil(left)).unref();
  }
}

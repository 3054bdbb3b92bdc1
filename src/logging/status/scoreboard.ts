// One process's share of mod_status's scoreboard (docs/decisions/0015-server-status.md): the
// requests it has answered (one per access-log line, the rejected ones included), their body
// bytes (%B) and durations, and how many it is answering now. Counted where the access-log
// record is made, so Total Accesses is the number of access-log lines by construction.
import type { AccessLog, AccessRecord } from '../access/index.ts';

/** What a process reports about itself; plain data, so it can cross node:cluster's IPC. */
export interface SlotSnapshot {
  readonly pid: number;
  /** Access-log lines written (requests answered or cut off). */
  readonly accesses: number;
  /** Sum of %B: response body bytes. */
  readonly bytes: number;
  /** Sum of %D, in milliseconds. */
  readonly durationMs: number;
  /** Requests in flight at the moment of the snapshot. */
  readonly busy: number;
  /** CPU seconds this process used (process.cpuUsage). */
  readonly cpuUser: number;
  readonly cpuSystem: number;
}

export class ProcessScoreboard {
  private accesses = 0;
  private bytes = 0;
  private durationUs = 0;
  private inFlight = 0;

  /** A request reached the handler: the process is busy until its response closes. */
  begin(): void {
    this.inFlight++;
  }

  end(): void {
    if (this.inFlight > 0) this.inFlight--;
  }

  /** Counts one access-log record (whether or not an access log is written). */
  count(record: AccessRecord): void {
    this.accesses++;
    this.bytes += record.bodyBytes;
    this.durationUs += record.durationUs;
  }

  snapshot(): SlotSnapshot {
    const cpu = process.cpuUsage();
    return {
      pid: process.pid,
      accesses: this.accesses,
      bytes: this.bytes,
      durationMs: Math.floor(this.durationUs / 1000),
      busy: this.inFlight,
      cpuUser: cpu.user / 1e6,
      cpuSystem: cpu.system / 1e6,
    };
  }
}

/**
 * The access log the server writes to, counting every record first. With the log off
 * (`log` undefined) the records are still made and counted, which costs a little per request.
 */
export function countingAccessLog(scoreboard: ProcessScoreboard, log: AccessLog | undefined): AccessLog {
  return {
    log(record) {
      scoreboard.count(record);
      log?.log(record);
    },
    afterWritten(then) {
      if (log) log.afterWritten(then);
      else then();
    },
  };
}

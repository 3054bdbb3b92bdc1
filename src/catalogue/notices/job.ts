// The notice job (ADR 0085): plan what is due, then send what is pending. `shelfmark notices`
// runs it once (for a systemd timer); `shelfmark serve` runs it in every process on an interval
// timer. Both may run on any number of machines over one database: planning inserts each notice
// once, sending claims each one for one sender.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import type { Mailer } from './mailer.ts';
import { planNotices, type NoticeRules } from './plan.ts';
import { sendNotices, type SendReport } from './send.ts';

export interface NoticeJobOptions {
  readonly now: () => Date;
  readonly rules: NoticeRules;
  /** The public URL of a path (links in the mails). */
  readonly absolute: (path: string) => string;
  /** Domain of Message-IDs (the base URL's host). */
  readonly messageDomain: string;
  readonly leaseMs?: number;
  readonly maxAttempts?: number;
}

export interface NoticeRun extends SendReport {
  readonly planned: number;
}

export interface NoticeJob {
  run(): Promise<NoticeRun>;
}

/** A claimer's name: which machine and process, and a random part so a reused pid differs. */
export function workerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function createNoticeJob(db: Kysely<DB>, mailer: Mailer, options: NoticeJobOptions): NoticeJob {
  const worker = workerName();
  return {
    async run() {
      const planned = await planNotices(db, options.now(), options.rules, options.absolute);
      const sent = await sendNotices(db, mailer, options.now, {
        worker,
        messageDomain: options.messageDomain,
        ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
        ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
      });
      return { planned, ...sent };
    },
  };
}

/**
 * Runs the job every `intervalMs` (the first run after one interval), never two runs of one
 * process at once. The timer does not keep the process alive. Returns stop(), which waits for a
 * run in progress.
 */
export function startNoticeTimer(
  job: NoticeJob,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = job
      .run()
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

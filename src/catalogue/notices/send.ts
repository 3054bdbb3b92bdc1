// Sending planned notices (ADR 0085). A sender claims one notice at a time with a conditional
// UPDATE: only a pending row whose next attempt is due and whose lease is free (never claimed,
// or the claimer's lease ran out because it crashed) changes, so of any number of senders on
// one database exactly one gets it. The claim writes `claimed_by` and a lease; only that
// claimer may then record the outcome. A sent notice is never claimed again. The window that
// remains: a sender that dies after the SMTP server accepted the message and before its UPDATE
// commits leaves the claim to expire, and the notice is sent again (with the same Message-ID,
// so a mail client shows it once). A failure is retried with exponential backoff; the server's
// final "no" (5xx) or too many attempts end it as `failed`. A notice whose loan was returned or
// renewed, or whose hold ended, is `obsolete` instead of sent.
import type { Kysely, Selectable } from 'kysely';
import type { DB, NoticesTable } from '../tables.ts';
import { isPermanent, type Mailer } from './mailer.ts';

export interface SendOptions {
  /** Who claims (host:pid:random): written into `claimed_by`. */
  readonly worker: string;
  /** How long a claim holds (default 5 minutes, longer than any SMTP timeout). */
  readonly leaseMs?: number;
  /** Most notices one run sends (default 200). */
  readonly batch?: number;
  /** Attempts before a notice is given up as failed (default 10). */
  readonly maxAttempts?: number;
  /** Domain of the Message-ID (the base URL's host). */
  readonly messageDomain: string;
}

export interface SendReport {
  readonly sent: number;
  readonly failed: number;
  readonly retried: number;
  readonly obsolete: number;
}

const MINUTE_MS = 60_000;

/** Wait before attempt `attempts + 1`: 1, 2, 4, … minutes, at most 6 hours. */
export function backoffMs(attempts: number): number {
  return Math.min(MINUTE_MS * 2 ** Math.max(0, attempts - 1), 6 * 60 * MINUTE_MS);
}

type Notice = Selectable<NoticesTable>;

/** Whether what the notice speaks of still holds (the loan open with that due date, …). */
async function stillDue(db: Kysely<DB>, notice: Notice, at: string): Promise<boolean> {
  switch (notice.kind) {
    case 'due-soon':
    case 'overdue-1':
    case 'overdue-2': {
      const loan = await db
        .selectFrom('loans')
        .select('id')
        .where('id', '=', notice.subject_id)
        .where('returned_at', 'is', null)
        .where('due_at', '=', notice.occasion)
        .executeTakeFirst();
      return loan !== undefined;
    }
    case 'hold-ready': {
      const hold = await db
        .selectFrom('holds')
        .select('id')
        .where('id', '=', notice.subject_id)
        .where('ended_at', 'is', null)
        .where('ready_at', '=', notice.occasion)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return hold !== undefined;
    }
    case 'password-reset': {
      const reset = await db
        .selectFrom('password_resets')
        .select('id')
        .where('id', '=', notice.subject_id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return reset !== undefined;
    }
  }
}

/** Claims the notice for `worker` until `until`, or undefined when another sender has it. */
function claim(db: Kysely<DB>, id: number, worker: string, at: string, until: string) {
  return db
    .updateTable('notices')
    .set({ claimed_by: worker, claimed_until: until, updated_at: at })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .returningAll()
    .executeTakeFirst();
}

/** Sends the pending notices due at `now()`; the clock is read for each notice. */
export async function sendNotices(
  db: Kysely<DB>,
  mailer: Mailer,
  now: () => Date,
  options: SendOptions,
): Promise<SendReport> {
  const leaseMs = options.leaseMs ?? 5 * MINUTE_MS;
  const maxAttempts = options.maxAttempts ?? 10;
  const report = { sent: 0, failed: 0, retried: 0, obsolete: 0 };
  const start = now().toISOString();
  const due = await db
    .selectFrom('notices')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', start)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', start)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(options.batch ?? 200)
    .execute();
  for (const { id } of due) {
    const at = now();
    const notice = await claim(
      db,
      id,
      options.worker,
      at.toISOString(),
      new Date(at.getTime() + leaseMs).toISOString(),
    );
    if (!notice) continue;
    // Only the claimer records the outcome: a claim that ran out and was taken over is not ours.
    const record = (set: Partial<Omit<Notice, 'id'>>) =>
      db
        .updateTable('notices')
        .set({ ...set, claimed_by: null, claimed_until: null, updated_at: now().toISOString() })
        .where('id', '=', id)
        .where('claimed_by', '=', options.worker)
        .execute();
    if (!(await stillDue(db, notice, at.toISOString()))) {
      await record({ state: 'obsolete' });
      report.obsolete++;
      continue;
    }
    try {
      await mailer.send({
        to: notice.email,
        subject: notice.subject,
        text: notice.body,
        language: notice.language,
        messageId: `<notice-${notice.id}.${notice.kind}@${options.messageDomain}>`,
      });
    } catch (error) {
      const attempts = notice.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      const final = isPermanent(error) || attempts >= maxAttempts;
      await record({
        attempts,
        last_error: message.slice(0, 500),
        ...(final
          ? { state: 'failed' }
          : { next_attempt_at: new Date(now().getTime() + backoffMs(attempts)).toISOString() }),
      });
      if (final) report.failed++;
      else report.retried++;
      // The server is unreachable or refusing for now: the rest waits for the next run.
      if (!isPermanent(error)) break;
      continue;
    }
    await record({
      state: 'sent',
      attempts: notice.attempts + 1,
      sent_at: now().toISOString(),
      message_id: `<notice-${notice.id}.${notice.kind}@${options.messageDomain}>`,
      last_error: null,
    });
    report.sent++;
  }
  return report;
}

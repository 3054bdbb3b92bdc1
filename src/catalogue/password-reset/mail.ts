// Sending the reset link (ADR 0093) through the notices' SMTP transport (ADR 0085). Not queued
// as a pending notice: a queued notice keeps its text in the database until sent, and this
// text carries the link — the secret the database must never hold. It is sent at once, in the
// background, so the SMTP conversation never delays the answer: its timing does not tell
// whether an account was found (but for the token's insert). Then it is recorded as a notice of kind
// `password-reset`, sent or failed, with the link replaced: the patron's record of mails. A
// failed send is not retried (the link would have to be kept for that); the patron asks again
// and the error log has the failure.
import type { Kysely } from 'kysely';
import type { Mailer } from '../notices/index.ts';
import { resetText } from '../notices/index.ts';
import type { DB } from '../tables.ts';
import { RESET_VALID_MINUTES, type IssuedReset } from './store.ts';
import { pathBuilder } from '../registry/index.ts';

export const resetPath: (token: string) => string = pathBuilder('PasswordReset');

/**
 * The access log's view of a URL (the server's `maskTarget`): a reset link's token, readable
 * or script-style (`/passwort-neu?token=`), and whatever follows it, replaced by `*****`.
 */
export function maskResetLinks(target: string): string {
  // Every request's line asks: most targets have no reset path, and `includes` is cheaper than the pattern.
  if (!target.includes('/passwort-neu')) return target;
  return target.replace(/(\/passwort-neu)(?:[/?][^\s]*)?(?=\s|$)/g, '$1/*****');
}

export interface ResetMailOptions {
  readonly mailer: Mailer;
  /** The public URL of a path (the link in the mail). */
  readonly absolute: (path: string) => string;
  /** Domain of Message-IDs (the base URL's host). */
  readonly messageDomain: string;
  readonly now: () => Date;
  /** A send or its record failed (the error log). */
  readonly onError: (error: unknown) => void;
}

export interface ResetMail {
  /** Sends in the background; returns at once. */
  send(resets: readonly IssuedReset[]): void;
  /** Waits for the sends under way (the server's close). */
  drain(): Promise<void>;
}

export function resetMail(db: Kysely<DB>, options: ResetMailOptions): ResetMail {
  const pending = new Set<Promise<void>>();

  async function deliver(reset: IssuedReset): Promise<void> {
    const text = resetText(
      reset.language,
      reset.name,
      options.absolute(resetPath(reset.token)),
      RESET_VALID_MINUTES,
      reset.username,
    );
    const messageId = `<password-reset-${reset.resetId}@${options.messageDomain}>`;
    let error: unknown = null;
    try {
      await options.mailer.send({
        to: reset.email,
        subject: text.subject,
        text: text.body,
        language: reset.language,
        messageId,
      });
    } catch (caught) {
      error = caught;
      options.onError(caught);
    }
    const at = options.now().toISOString();
    const withoutLink = text.body.replace(
      options.absolute(resetPath(reset.token)),
      options.absolute('/passwort-neu/…'),
    );
    await db
      .insertInto('notices')
      .values({
        kind: 'password-reset',
        subject_id: reset.resetId,
        occasion: reset.createdAt.toISOString(),
        person_id: reset.personId,
        email: reset.email,
        language: reset.language,
        subject: text.subject,
        body: withoutLink,
        state: error === null ? 'sent' : 'failed',
        attempts: 1,
        next_attempt_at: at,
        last_error:
          error === null ? null : String(error instanceof Error ? error.message : error).slice(0, 500),
        message_id: error === null ? messageId : null,
        created_at: at,
        sent_at: error === null ? at : null,
        updated_at: at,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  return {
    send(resets) {
      for (const reset of resets) {
        const run = deliver(reset)
          .catch(options.onError)
          .finally(() => pending.delete(run));
        pending.add(run);
      }
    },
    async drain() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

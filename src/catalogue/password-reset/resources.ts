// The password reset over HTTP (ADR 0093; docs/urls.md).
// `/passwort-vergessen`
//   GET  → the request form (HTML); XML/JSON: whether reset by e-mail is set up, how long a link works.
//   POST → `konto` (user name or e-mail address): every unlocked account it names that has an
//          address gets a link by mail. The answer is the same whether or not one was found:
//          204, or 303 to `?angefordert` for a form. Rate-limited per given name or address and
//          per client address (429 with Retry-After, counted whether or not an account exists).
//          Without an SMTP server: 503.
// `/passwort-neu/{token}` (→ `/passwort-neu?token=`)
//   GET  → the account the link is for and until when it works; HTML: the new-password form.
//   POST → `neuesPasswort` (a form also `wiederholung`), the password rule of every password
//          (422): the password is set, the link and every other open one of the account is
//          spent, every session ends. 204, or 303 to the log-in page for a form.
//   An unknown token is 404; a used or expired one 410 SHELFMARK_RESET_LINK_INVALID.
import type { LoginLimiter } from '../../http/auth/index.ts';
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { readNewPassword, required, text } from '../accounts/index.ts';
import { hashPassword as scryptHash } from '../accounts/index.ts';
import { HttpError, notFound } from '../shared/index.ts';
import { formFlow } from '../writes/index.ts';
import { invalidOutcome } from '../writes/index.ts';
import { enteredValues } from '../writes/index.ts';
import { SESSION_PATH } from '../session/index.ts';
import type { ResetMail } from './mail.ts';
import type { PasswordResetStore, ResetState } from './store.ts';
import { resetStrings } from './strings.ts';
import { REQUEST_PATH, REQUESTED_PARAM, requestRepresentation, resetRepresentation } from './views.ts';
import { routeOf } from '../registry/index.ts';

export interface PasswordResetOptions {
  readonly store: PasswordResetStore;
  /** Null: no SMTP server configured (the request answers 503). */
  readonly mail: ResetMail | null;
  /** Requests per given name or address in the limiter's window. */
  readonly perAccount: LoginLimiter;
  /** Requests per client address in the limiter's window. */
  readonly perClient: LoginLimiter;
  /** Hashes the new password (default scrypt, ADR 0035; tests pass a fast one). */
  readonly hashPassword?: (password: string) => Promise<string>;
}

const local = (pick: (t: ReturnType<typeof resetStrings>) => string) => ({
  de: pick(resetStrings('de')),
  en: pick(resetStrings('en')),
});

function tooMany(retryAfterSeconds: number): HttpError {
  return new HttpError('SHELFMARK_TOO_MANY_REQUESTS', {
    detail: `Too many password reset requests. Try again in ${retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

export function passwordResetRequestResource(options: PasswordResetOptions): ResourceDefinition {
  const available = options.mail !== null;
  return {
    name: 'password-reset-request',
    path: REQUEST_PATH,
    cacheable: true,
    // The form alone: no write changes it.
    dependsOn: () => [],
    methods: {
      async GET(ctx) {
        return {
          type: 'representation',
          representation: requestRepresentation(available, ctx.query.has(REQUESTED_PARAM)),
        };
      },
      async POST(ctx): Promise<Outcome> {
        if (!options.mail)
          throw new HttpError('SHELFMARK_SERVICE_UNAVAILABLE', {
            detail: 'Password reset by e-mail is not set up (no SMTP server is configured).',
            localDetail: local((t) => t.unavailableProblem),
          });
        const given = text(ctx.body, 'konto')?.trim();
        if (given === undefined || given === '') {
          const problems = [required('konto')];
          return invalidOutcome(ctx, problems, () =>
            requestRepresentation(available, false, { values: enteredValues(ctx.body, ['konto']), problems }),
          );
        }
        // Counted before anything is looked up, for names that exist and names that do not alike.
        // The keys share the log-in limiter's table; a log-in key is `name NUL address` or
        // `* NUL NUL address`, and an address holds no NUL: these can never be one of those.
        const accountKey = `*\u0000reset\u0000account:${given.normalize('NFKC').toLowerCase()}`;
        const clientKey = `*\u0000reset\u0000client:${ctx.address}`;
        for (const [limiter, key] of [
          [options.perClient, clientKey],
          [options.perAccount, accountKey],
        ] as const) {
          const verdict = await limiter.check(key);
          if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds ?? 60);
        }
        await options.perClient.recordFailure(clientKey);
        await options.perAccount.recordFailure(accountKey);
        options.mail.send(await options.store.issue(given));
        return formFlow(ctx)
          ? { type: 'redirect', status: 303, path: `${REQUEST_PATH}?${REQUESTED_PARAM}` }
          : { type: 'empty', status: 204 };
      },
    },
  };
}

function refusal(state: ResetState | null): HttpError {
  if (state === null) return notFound('There is no such password reset link.');
  return new HttpError('SHELFMARK_RESET_LINK_INVALID', {
    detail: `This password reset link has ${state.state === 'used' ? 'been used' : 'expired'}; ask for a new one.`,
    localDetail: local((t) => t.linkInvalid),
  });
}

export function passwordResetResource(options: PasswordResetOptions): ResourceDefinition {
  const hash = options.hashPassword ?? ((password: string) => scryptHash(password));
  const tokenOf = (ctx: RequestContext) => ctx.query.get('token') ?? '';

  return {
    name: 'password-reset',
    path: routeOf('PasswordReset'),
    methods: {
      async GET(ctx) {
        const token = tokenOf(ctx);
        const state = await options.store.find(token);
        if (state?.state !== 'valid') throw refusal(state);
        return {
          type: 'representation',
          representation: resetRepresentation(token, state.username, state.expiresAt),
        };
      },
      async POST(ctx): Promise<Outcome> {
        const token = tokenOf(ctx);
        const state = await options.store.find(token);
        if (state?.state !== 'valid') throw refusal(state);
        const next = readNewPassword(
          ctx.body,
          { password: 'neuesPasswort', repeat: 'wiederholung' },
          state.username,
          formFlow(ctx),
        );
        if (next.problems.length > 0 || next.password === undefined)
          return invalidOutcome(ctx, next.problems, () =>
            resetRepresentation(token, state.username, state.expiresAt, {
              values: {},
              problems: next.problems,
            }),
          );
        const used = await options.store.use(token, await hash(next.password));
        if (used?.state !== 'done') throw refusal(used);
        return formFlow(ctx)
          ? { type: 'redirect', status: 303, path: SESSION_PATH }
          : { type: 'empty', status: 204 };
      },
    },
  };
}

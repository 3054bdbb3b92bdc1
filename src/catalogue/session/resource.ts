// The session resource `/sitzung` (docs/urls.md, docs/access.md):
//   GET    → HTML: the log-in form (or who is logged in, with a log-out button);
//            XML/JSON: who is logged in (schema `session`), with the CSRF token.
//   POST   → log in with username + password (form, JSON or XML body). HTML: 303 to `zurueck`
//            when it is a local path, else to `/`. XML/JSON: 200 with the session
//            representation (the Set-Cookie is on it). Wrong credentials → 401, too many → 429.
//   DELETE → log out (forms: POST with `_method=DELETE`). HTML: 303 to `/`; XML/JSON: 204.
import { HttpError } from '../../http/errors/index.ts';
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonStore } from '../model.ts';
import { RETURN_FIELD, safeReturnPath, SESSION_PATH } from './return-path.ts';
import { sessionStrings } from './strings.ts';
import { formFlow } from '../writes/index.ts';
import { sessionView, type SessionModel } from './view.ts';

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, name))
    return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

async function representation(ctx: RequestContext, persons: PersonStore, returnTo: string): Promise<Outcome> {
  const user = ctx.user;
  let person: SessionModel['person'] = null;
  if (user) {
    const found = await persons.byId(user.id);
    if (found && 'found' in found)
      person = { slug: found.found.slug, name: `${found.found.vorname} ${found.found.nachname}` };
  }
  const model: SessionModel = { user, person, csrfToken: ctx.csrfToken, returnTo };
  return {
    type: 'representation',
    representation: { model, view: sessionView, canonicalPath: SESSION_PATH, schema: 'session' },
  };
}

export function sessionResource(persons: PersonStore): ResourceDefinition {
  return {
    name: 'session',
    path: SESSION_PATH,
    methods: {
      GET: (ctx) => representation(ctx, persons, safeReturnPath(ctx.query.get(RETURN_FIELD)) ?? '/'),

      async POST(ctx) {
        const username = field(ctx.body, 'username');
        const password = field(ctx.body, 'password');
        const missing = [!username && 'username', !password && 'password'].filter((f) => f !== false);
        if (missing.length > 0) {
          throw new HttpError('SHELFMARK_VALIDATION_FAILED', {
            detail: 'Log in with username and password.',
            localDetail: {
              de: 'Melden Sie sich mit Benutzername und Passwort an.',
              en: 'Log in with user name and password.',
            },
            extensions: { errors: missing.map((f) => ({ field: f, detail: 'required' })) },
          });
        }
        const returnTo =
          safeReturnPath(field(ctx.body, RETURN_FIELD)) ?? safeReturnPath(ctx.query.get(RETURN_FIELD)) ?? '/';
        try {
          await ctx.session.login(username ?? '', password ?? '');
        } catch (error) {
          // The HTML 401 page shows the form again (the error page's `unauthorized` slot).
          if (error instanceof HttpError && error.status === 401)
            throw new HttpError('SHELFMARK_UNAUTHENTICATED', {
              detail: 'Wrong user name or password.',
              localDetail: { de: sessionStrings('de').loginFailed, en: sessionStrings('en').loginFailed },
            });
          throw error;
        }
        if (formFlow(ctx)) return { type: 'redirect', status: 303, path: returnTo, relative: true };
        return representation(ctx, persons, returnTo);
      },

      async DELETE(ctx) {
        await ctx.session.logout();
        return formFlow(ctx)
          ? { type: 'redirect', status: 303, path: '/', relative: true }
          : { type: 'empty', status: 204 };
      },
    },
  };
}

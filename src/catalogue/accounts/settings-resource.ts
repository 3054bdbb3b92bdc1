// `/personen/{slug}/konto/einstellungen` (→ `/konto/einstellungen?slug=`; ADR 0093): the
// patron's settings, for the person themselves and staff (others: 403, as for the account).
//   GET   → e-mail address, language, notices on or off (XML/JSON, schema `settings`); HTML: the form.
//   PUT   → all three (`email`, `sprache`, `benachrichtigungen`); forms: POST with `_method=PUT`.
//           The person changing their own address sends their `passwort` too (422 without it).
//   PATCH → JSON Merge Patch of the JSON representation, then as PUT.
// Preconditions as for every writable resource (If-Match / `_version`); a bad field is 422.
import { applyMergePatch, parseMediaType, unsupportedPatch, type Fields } from '../../http/body/index.ts';
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonStore } from '../model.ts';
import { notFound } from '../shared/index.ts';
import { againWhenChanged } from '../writes/index.ts';
import { serialized } from '../writes/index.ts';
import { formFlow } from '../writes/index.ts';
import { invalidOutcome } from '../writes/index.ts';
import { enteredValues } from '../writes/index.ts';
import { text } from './input.ts';
import { readSettings, SETTINGS_FIELDS, SETTINGS_PROBLEMS } from './settings-input.ts';
import type { SettingsStore } from './settings-store.ts';
import { settingsPath, settingsRepresentation } from './settings-view.ts';
import type { AccountStore } from './store.ts';
import { accountTarget } from './access.ts';
import { routeOf } from '../registry/index.ts';

export function settingsResource(
  persons: PersonStore,
  accounts: AccountStore,
  settings: SettingsStore,
): ResourceDefinition {
  async function target(ctx: RequestContext, moved: 301 | 308) {
    const found = await accountTarget(ctx, persons, accounts, settingsPath, moved);
    if ('redirect' in found) return found;
    const current = found.account ? await settings.read(found.person.id) : null;
    if (!current) throw notFound('This person has no account.');
    return { person: found.person, current, self: found.self };
  }

  async function replace(ctx: RequestContext, moved: 301 | 308, patch: boolean): Promise<Outcome> {
    const found = await target(ctx, moved);
    if ('redirect' in found) return found.redirect;
    const { person, current, self } = found;
    const representation = settingsRepresentation(person, current);
    ctx.checkPreconditions(representation);
    let body = ctx.body;
    if (patch) {
      const base = JSON.parse(
        JSON.stringify(representation.view.json(representation.model, { ...ctx, format: 'json' })),
      ) as Fields;
      body = applyMergePatch(base, ctx.body as Fields);
    }
    const form = formFlow(ctx) && !patch;
    const read = readSettings(body, form);
    if (!read.settings)
      return invalidOutcome(ctx, read.problems, () =>
        settingsRepresentation(person, current, {
          values: enteredValues(body, SETTINGS_FIELDS),
          problems: read.problems,
        }),
      );
    // The address is where a reset link goes: the patron changing their own confirms it with
    // the password, so a stolen session alone cannot redirect the account's recovery.
    if (self && (read.settings.email ?? '').toLowerCase() !== (current.email ?? '').toLowerCase()) {
      const password = text(body, 'passwort');
      const problem =
        password === undefined
          ? SETTINGS_PROBLEMS.passwordRequired()
          : (await ctx.session.confirmPassword(password))
            ? null
            : SETTINGS_PROBLEMS.wrongPassword();
      if (problem)
        return invalidOutcome(ctx, [problem], () =>
          settingsRepresentation(person, current, {
            values: enteredValues(body, SETTINGS_FIELDS),
            problems: [problem],
          }),
        );
    }
    const written = await settings.write(person.id, read.settings, { expectedUpdatedAt: current.updatedAt });
    if (!written) throw notFound('This person has no account.');
    if (form) return { type: 'redirect', status: 303, path: settingsPath(person.slug) };
    return { type: 'representation', status: 200, representation: settingsRepresentation(person, written) };
  }

  return {
    name: 'account-settings',
    path: routeOf('Settings'),
    methods: {
      async GET(ctx) {
        const found = await target(ctx, 301);
        if ('redirect' in found) return found.redirect;
        return {
          type: 'representation',
          representation: settingsRepresentation(found.person, found.current),
        };
      },
      PUT: (ctx) => serialized('catalogue', () => againWhenChanged(() => replace(ctx, 308, false))),
      PATCH: (ctx) => {
        if (ctx.body === undefined || ctx.body === null) throw unsupportedPatch(parseMediaType(undefined));
        return serialized('catalogue', () => againWhenChanged(() => replace(ctx, 308, true)));
      },
    },
  };
}

// A small application on the layer with sessions, CSRF and preconditions switched on, for the
// layer's security tests (not used in production).
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { logUserOf } from '../../../src/logging/access/index.ts';
import { accessUser } from '../../../src/http/app/request-state.ts';
import { MemoryLoginLimiter, type AccountRecord } from '../../../src/http/auth/index.ts';
import { HttpError } from '../../../src/http/errors/http-error.ts';
import { html, xml } from '../../../src/http/representation/markup.ts';
import type { Representation, ResourceDefinition, View } from '../../../src/http/resource/types.ts';
import { createResourceApp } from '../../../src/http/app/create-app.ts';
import type { ResourceAppOptions } from '../../../src/http/app/options.ts';

export const SECRET = 's'.repeat(40);
export const ORIGIN = 'https://library.example';

const ACCOUNTS: AccountRecord[] = [
  { id: 7, username: 'anna', role: 'member', passwordHash: 'pw-anna' },
  { id: 8, username: 'ben', role: 'staff', passwordHash: 'pw-ben' },
];

interface Thing {
  readonly name: string;
  readonly who: string;
  readonly token: string;
}

const thingView: View<Thing> = {
  html: (t, ctx) =>
    html`<!DOCTYPE html><html lang="${ctx.lang}"><title>${t.name}</title><p>${t.who} ${t.token}</p></html>`,
  xml: (t) => xml`<thing>${t.name}</thing>`,
  json: (t) => ({ name: t.name }),
};

/** The resource's state: `name` (null: it does not exist). Tests change it between requests. */
export const state: { name: string | null } = { name: 'eins' };

function current(
  ctx: Parameters<NonNullable<ResourceDefinition['methods']['GET']>>[0],
): Representation<Thing> | null {
  if (state.name === null) return null;
  return {
    model: { name: state.name, who: ctx.user?.username ?? 'anonym', token: ctx.csrfToken ?? '-' },
    view: thingView,
    canonicalPath: '/ding',
  };
}

const thing: ResourceDefinition = {
  name: 'thing',
  path: '/ding',
  methods: {
    async GET(ctx) {
      const rep = current(ctx);
      if (!rep) throw new HttpError('SHELFMARK_NOT_FOUND');
      return { type: 'representation', representation: rep };
    },
    async POST(ctx) {
      return {
        type: 'representation',
        representation: {
          ...current(ctx)!,
          model: { name: 'posted', who: ctx.user?.username ?? 'anonym', token: '-' },
        },
      };
    },
    async PUT(ctx) {
      ctx.checkPreconditions(current(ctx));
      state.name = 'changed';
      return { type: 'representation', representation: current(ctx)! };
    },
    async DELETE(ctx) {
      ctx.checkPreconditions(current(ctx));
      state.name = null;
      return { type: 'empty', status: 204 };
    },
  },
};

const login: ResourceDefinition = {
  name: 'login',
  path: '/anmeldung',
  methods: {
    async GET(ctx) {
      return { type: 'representation', representation: { ...current(ctx)!, canonicalPath: '/anmeldung' } };
    },
    async POST(ctx) {
      const body = ctx.body as Record<string, string>;
      const user = await ctx.session.login(body.username ?? '', body.password ?? '');
      return {
        type: 'representation',
        representation: {
          // The context follows the log-in: who is asking now, and their session's token.
          model: { name: user.username, who: ctx.user?.username ?? 'anonym', token: ctx.csrfToken ?? '-' },
          view: thingView,
          canonicalPath: '/anmeldung',
        },
      };
    },
    async DELETE(ctx) {
      await ctx.session.logout();
      return { type: 'empty', status: 204 };
    },
  },
};

/** The %u each finished request would be logged with, in order. */
export const loggedUsers: (string | undefined)[] = [];

export function securityApp(
  overrides: Partial<ResourceAppOptions> = {},
  now?: () => number,
): Promise<FastifyInstance> {
  return createResourceApp({
    baseUrl: `${ORIGIN}/katalog`,
    trustProxy: [],
    resources: [thing, login],
    rewrites: [],
    displayErrors: false,
    loginPath: '/anmeldung',
    security: {
      secrets: [SECRET],
      findUser: async (name) => ACCOUNTS.find((a) => a.username === name) ?? null,
      findUserById: async (id) => ACCOUNTS.find((a) => a.id === id) ?? null,
      verifyPassword: async (password, hash) => `pw-${password}` === hash,
      limiter: new MemoryLoginLimiter({ maxFailures: 3, windowMs: 60_000, ...(now && { now }) }),
      ...(now && { now }),
    },
    configure(app) {
      app.addHook('onResponse', async (request) => {
        const raw: IncomingMessage = request.raw;
        loggedUsers.push(logUserOf(accessUser(raw), raw.rawHeaders));
      });
    },
    ...overrides,
  });
}

// The catalogue on the real resource layer, wired as main.ts wires it (rewrites, plain routes,
// schemas, the error page), for tests over HTTP. With `accountSecurity`, sessions, Basic and CSRF
// check passwords stored as `plain:<password>`: the tests are about who may do what, not hashing.
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createResourceApp, type ResourceAppOptions } from '../../../src/http/index.ts';
import type { catalogueResources } from '../../../src/catalogue/index.ts';
import type { CatalogueStores } from '../../../src/catalogue/stores.ts';

type Catalogue = ReturnType<typeof catalogueResources>;
type Security = NonNullable<ResourceAppOptions['security']>;

/** `catalogue` served at `baseUrl`; `options` add to or replace the defaults (no proxy, no error details). */
export function catalogueApp(
  catalogue: Catalogue,
  options: Partial<ResourceAppOptions> & Pick<ResourceAppOptions, 'baseUrl'>,
): Promise<FastifyInstance> {
  return createResourceApp({
    trustProxy: [],
    resources: catalogue.resources,
    rewrites: catalogue.rewrites,
    passthrough: catalogue.passthrough,
    configure: catalogue.configure,
    errorPage: catalogue.errorPage,
    displayErrors: false,
    ...options,
  });
}

/** A fast stand-in for scrypt, matching `accountSecurity`'s check. */
export const plainHash = async (password: string): Promise<string> => `plain:${password}`;

/** Log-in at /sitzung against the accounts store, passwords stored as `plain:<password>`. */
export function accountSecurity(
  accounts: CatalogueStores['accounts'],
  extra: Partial<Security> = {},
): Pick<ResourceAppOptions, 'loginPath' | 'security'> {
  return {
    loginPath: '/sitzung',
    security: {
      secrets: ['k'.repeat(40)],
      findUser: (name) => accounts.findByUsername(name),
      findUserById: (id) => accounts.findById(id),
      verifyPassword: async (pw, hash) => hash === (await plainHash(pw)),
      dummyHash: 'plain:\u0000',
      ...extra,
    },
  };
}

/** A logged-in client: its session cookie (`name=value`) and the CSRF token for its writes. */
export interface Device {
  cookie: string;
  token: string;
}

/** Logs `username` in through the /sitzung form (sent from `origin`); fails unless it answers 303. */
export async function logIn(
  app: FastifyInstance,
  origin: string,
  username: string,
  password = `${username}-pass`,
): Promise<Device> {
  const res = await app.inject({
    method: 'POST',
    url: '/sitzung',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    payload: new URLSearchParams({ username, password }).toString(),
  });
  assert.equal(res.statusCode, 303, `log-in of ${username}: ${res.body}`);
  return deviceOf(app, cookieOf(res));
}

/** The session cookie an answer sets (`name=value`); fails if it sets none. */
export function cookieOf(res: LightMyRequestResponse): string {
  const cookie = /^(shelfmark_session=[^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
  assert.ok(cookie, 'a session cookie');
  return cookie;
}

/** The session `cookie` with the CSRF token /sitzung.json gives it. */
export async function deviceOf(app: FastifyInstance, cookie: string): Promise<Device> {
  const who = await app.inject({ url: '/sitzung.json', headers: { cookie } });
  return { cookie, token: String(who.json().csrfToken) };
}

// The catalogue's public surface: its resources, rewrite table, extra routes and error page,
// ready to be handed to the resource layer by src/main.ts.
import type { FastifyInstance } from 'fastify';
import type { Principal, ResourceDefinition, RewriteRule } from '../http/resource/types.ts';
import { homeResource } from './home/index.ts';
import { checkInResource } from './check-in/index.ts';
import { deskResource, type DeskStore } from './desk/index.ts';
import type { CheckInStore } from './check-in/index.ts';
import {
  loanResource,
  loansResource,
  type LoanStore,
  renewalResource,
  type RenewalStore,
} from './loans/index.ts';
import { holdResource, holdsResource, queueResource, type HoldStore } from './holds/index.ts';
import { createErrorPage, type ErrorPage, type ErrorPageSlots } from './layout/index.ts';
import type { PersonStore, WorkStore } from './model.ts';
import { personResource, personsResource } from './persons/index.ts';
import { errorLogResource, LIVE_PATH, registerLiveRoute } from './error-log/index.ts';
import { catalogueRewrites } from './rewrites.ts';
import { PASSTHROUGH_PREFIXES, registerCatalogueRoutes } from './routes.ts';
import { workResource, worksResource } from './works/index.ts';
import { lifeDatesResource, type LifeDatesStore } from './life-dates/index.ts';
import { copiesResource, copyResource, type CopyStore } from './copies/index.ts';
import { sessionErrorSlots, sessionResource } from './session/index.ts';
import { registerAutoHook, serverStatusResource } from './server-status/index.ts';
import type { ServerStatus } from '../logging/index.ts';
import { registerSitemapRoutes, SITEMAP_PASSTHROUGH, type SitemapSource } from './sitemap/index.ts';
import { OPENAPI_PATH, registerOpenApiRoute } from './openapi/index.ts';
import { OAI_PATH, registerOaiRoute, type RecordSource } from './oai/index.ts';
import { accountResource, passwordResource, settingsResource } from './accounts/index.ts';
import type { AccountStore, SettingsStore } from './accounts/index.ts';
import {
  holdShelfResource,
  overdueResource,
  patronsResource,
  type StaffListStore,
} from './staff-lists/index.ts';
import { noticesResource } from './notices/index.ts';
import type { NoticeListStore } from './notices/index.ts';
import { registerOpenSearchRoute, type FeedSource } from './feeds/index.ts';
import { OPENSEARCH_PATH } from './layout/index.ts';
import { closedDayResources, itemTypeResources, type RulesEditingStore } from './rules/index.ts';
import {
  passwordResetRequestResource,
  passwordResetResource,
  type PasswordResetOptions,
} from './password-reset/index.ts';

/**
 * What the resources are served from: read interfaces (fakes in tests, the SQL stores of
 * `createStores` in production). Persons and works also offer writes when the store can write.
 */
export interface ResourceStores {
  readonly persons: PersonStore;
  readonly works: WorkStore;
  /** Loans (`/ausleihen/…`); without it the loan resources are not served. */
  readonly loans?: LoanStore;
  /** Holds (`/personen/{slug}/vormerkungen`, `/werke/{slug}/vormerkungen`); without it they are not served. */
  readonly holds?: HoldStore;
  /** Renewing loans (`/ausleihen/{user_id}/{loan_id}/verlaengerung`); served with the loans. */
  readonly renewals?: RenewalStore;
  /** A work's copies (`/werke/{slug}/exemplare[/{nummer}]`); without it they are not served. */
  readonly copies?: CopyStore;
  /** A person's life dates (`/personen/{slug}/lebensdaten`); without it they are not served. */
  readonly lifeDates?: LifeDatesStore;
  /** The desk's check-in by barcode (`/rueckgabe`, with the loans); without it that is not served. */
  readonly checkIns?: CheckInStore;
  /** The desk's lookups by card and barcode (`/theke`, with the loans; ADR 0082); without it not served. */
  readonly desk?: DeskStore;
  /** Every public person and work for `/sitemap.xml`; without it no sitemap and no robots.txt. */
  readonly sitemap?: SitemapSource;
  /** Accounts (`/personen/{slug}/konto`, `…/konto/passwort`); without it they are not served. */
  readonly accounts?: AccountStore;
  /** A patron's settings (`/personen/{slug}/konto/einstellungen`, ADR 0093); served with the accounts. */
  readonly settings?: SettingsStore;
  /** Item types and closed days for staff (`/ausleihregeln/…`, ADR 0093); without it not served. */
  readonly rules?: RulesEditingStore;
  /** The works as OAI-PMH records (`/oai`, ADR 0081); without it no OAI-PMH provider. */
  readonly oai?: RecordSource;
  /** The staff lists (`/leser`, `/abholregal`, `/ausleihen/ueberfaellig`; ADR 0092); without it not served. */
  readonly staffLists?: StaffListStore;
  /** The notices (`/benachrichtigungen`, `/personen/{slug}/benachrichtigungen`; with the holds' person lookups). */
  readonly noticeList?: NoticeListStore;
  /** The newest works for the Atom feeds (`/werke.atom`, `/personen/{slug}.atom`, ADR 0096); without it none. */
  readonly feeds?: FeedSource;
}

export interface CatalogueOptions {
  /** The server's clock (overdue loans, OAI-PMH's responseDate and a harvest's until bound); default the system's. */
  readonly now?: () => Date;
  /** Name shown in the home page's XML/JSON (default "Shelfmark"). */
  readonly siteName?: string;
  /** How many works the home page highlights (default 6). */
  readonly highlights?: number;
  /** Slots in the HTML error page, e.g. the login form on 403 pages. */
  readonly errorSlots?: ErrorPageSlots;
  /** The error log's file (or `-` for stderr): staff read it at `/protokoll/fehler`; without it that is not served. */
  readonly errorLogPath?: string;
  /** The account as it is now, by id: the live error-log stream re-checks the staff role with it. */
  readonly currentPrincipal?: (id: number) => Promise<Principal | null>;
  /** How often the live stream re-checks (default 10 000 ms). */
  readonly liveAccessCheckMs?: number;
  /** The whole server's mod_status numbers: staff read them at `/server-status`; without it that is not served. */
  readonly serverStatus?: () => Promise<ServerStatus>;
  /** URLs per sitemap file before /sitemap.xml becomes an index (default 50,000, the protocol's maximum). */
  readonly sitemapLimit?: number;
  /** Days a returned copy is kept for a hold, shown on the hold pages (default 7). */
  readonly holdDays?: number;
  /** Members may return their own loans (SHELFMARK_MEMBER_RETURNS; default false: staff check them in). */
  readonly memberReturns?: boolean;
  /** Days overdue that block borrowing, for the refusal's text (the loan store decides; default 14). */
  readonly overdueBlockDays?: number;
  /** The OAI-PMH repository's adminEmail (default: webmaster@ the base URL's host, ADR 0081). */
  readonly adminEmail?: string;
  /** Records per OAI-PMH ListRecords page (default 100). */
  readonly oaiPageSize?: number;
  /** Renewals per loan, so the pages offer no renew button past them (the store decides; default 2). */
  readonly maxRenewals?: number;
  /** Hashes new passwords set over HTTP (default scrypt, ADR 0035; tests pass a fast one). */
  readonly hashPassword?: (password: string) => Promise<string>;
  /** Password reset by e-mailed link (`/passwort-vergessen`, ADR 0093); without it not served. */
  readonly passwordReset?: PasswordResetOptions;
}

export interface Catalogue {
  readonly resources: ResourceDefinition[];
  readonly rewrites: RewriteRule[];
  /** Path prefixes served by plain routes (registered by `configure`), outside negotiation. */
  readonly passthrough: string[];
  /** Registers schemas, portraits and the stylesheet on the Fastify instance. */
  configure(app: FastifyInstance): Promise<void>;
  /** The HTML body for a problem-details error, in the catalogue's layout. */
  readonly errorPage: ErrorPage;
}

function accountResources(
  persons: PersonStore,
  accounts: AccountStore,
  settings: SettingsStore | undefined,
  hashPassword: CatalogueOptions['hashPassword'],
): ResourceDefinition[] {
  const options = hashPassword ? { hashPassword } : {};
  return [
    accountResource(persons, accounts, options),
    passwordResource(persons, accounts, options),
    ...(settings ? [settingsResource(persons, accounts, settings)] : []),
  ];
}

function passwordResetResources(
  reset: PasswordResetOptions,
  hashPassword: CatalogueOptions['hashPassword'],
): ResourceDefinition[] {
  const options = { ...reset, ...(hashPassword && !reset.hashPassword && { hashPassword }) };
  return [passwordResetRequestResource(options), passwordResetResource(options)];
}

export function catalogueResources(stores: ResourceStores, opts: CatalogueOptions = {}): Catalogue {
  const errorLogPath = opts.errorLogPath;
  const serverStatus = opts.serverStatus;
  const lending = {
    ...(opts.now !== undefined && { now: opts.now }),
    ...(opts.memberReturns !== undefined && { memberReturns: opts.memberReturns }),
    ...(opts.maxRenewals !== undefined && { maxRenewals: opts.maxRenewals }),
    ...(opts.overdueBlockDays !== undefined && { overdueBlockDays: opts.overdueBlockDays }),
  };
  const resources = [
    homeResource(stores.works, { siteName: opts.siteName, highlights: opts.highlights }),
    personsResource(stores.persons),
    personResource(stores.persons, stores.feeds),
    ...(stores.lifeDates ? [lifeDatesResource(stores.lifeDates)] : []),
    worksResource(stores.works, stores.persons, stores.feeds),
    workResource(stores.works, stores.persons),
    ...(stores.copies
      ? [copiesResource(stores.copies, stores.works), copyResource(stores.copies, stores.works)]
      : []),
    ...(stores.loans
      ? [
          loansResource(stores.loans, { ...lending, ...(stores.desk && { copies: stores.desk }) }),
          loanResource(stores.loans, lending),
        ]
      : []),
    ...(stores.loans && stores.desk ? [deskResource(stores.desk, stores.loans, lending)] : []),
    ...(stores.loans && stores.renewals ? [renewalResource(stores.loans, stores.renewals)] : []),
    ...(stores.loans && stores.checkIns ? [checkInResource(stores.checkIns, stores.loans)] : []),
    ...(stores.holds
      ? [
          holdsResource(stores.holds, { ...(opts.holdDays !== undefined && { holdDays: opts.holdDays }) }),
          holdResource(stores.holds),
          queueResource(stores.holds),
        ]
      : []),
    ...(stores.staffLists
      ? [
          patronsResource(stores.staffLists),
          holdShelfResource(stores.staffLists, { ...(opts.now !== undefined && { now: opts.now }) }),
          overdueResource(stores.staffLists, { ...(opts.now !== undefined && { now: opts.now }) }),
        ]
      : []),
    ...(stores.noticeList && stores.holds
      ? [
          noticesResource(stores.noticeList, {
            bySlug: stores.holds.personBySlug,
            byId: stores.holds.personById,
          }),
        ]
      : []),
    sessionResource(stores.persons),
    ...(stores.accounts
      ? accountResources(stores.persons, stores.accounts, stores.settings, opts.hashPassword)
      : []),
    ...(stores.rules ? [...itemTypeResources(stores.rules), ...closedDayResources(stores.rules)] : []),
    ...(opts.passwordReset ? passwordResetResources(opts.passwordReset, opts.hashPassword) : []),
    ...(errorLogPath !== undefined ? [errorLogResource({ errorLogPath })] : []),
    ...(serverStatus ? [serverStatusResource({ serverStatus })] : []),
  ];
  return {
    resources,
    rewrites: [...catalogueRewrites],
    passthrough: [
      ...PASSTHROUGH_PREFIXES,
      OPENAPI_PATH,
      OPENSEARCH_PATH,
      ...(errorLogPath !== undefined ? [LIVE_PATH] : []),
      ...(stores.sitemap ? SITEMAP_PASSTHROUGH : []),
      ...(stores.oai ? [OAI_PATH] : []),
    ],
    configure: async (app) => {
      await registerCatalogueRoutes(app, { persons: stores.persons });
      registerOpenApiRoute(app, resources);
      registerOpenSearchRoute(app);
      if (stores.sitemap)
        registerSitemapRoutes(app, {
          source: stores.sitemap,
          ...(opts.sitemapLimit !== undefined && { limit: opts.sitemapLimit }),
        });
      if (stores.oai)
        registerOaiRoute(app, {
          source: stores.oai,
          repositoryName: opts.siteName ?? 'Shelfmark',
          ...(opts.adminEmail !== undefined && { adminEmail: opts.adminEmail }),
          now: opts.now ?? (() => new Date()),
          ...(opts.oaiPageSize !== undefined && { pageSize: opts.oaiPageSize }),
        });
      if (errorLogPath !== undefined)
        registerLiveRoute(app, {
          errorLogPath,
          ...(opts.currentPrincipal && { currentPrincipal: opts.currentPrincipal }),
          ...(opts.liveAccessCheckMs !== undefined && { accessCheckMs: opts.liveAccessCheckMs }),
        });
      if (serverStatus) registerAutoHook(app, { serverStatus });
    },
    errorPage: createErrorPage({ ...sessionErrorSlots, ...opts.errorSlots }),
  };
}

export { catalogueRewrites } from './rewrites.ts';
export { registerCatalogueRoutes, type CatalogueRouteOptions } from './routes.ts';
export {
  errorPage,
  createErrorPage,
  layout,
  type ErrorPage,
  type ErrorPageSlots,
  type ProblemLike,
} from './layout/index.ts';
export { HttpError } from './shared/index.ts';
export { SCHEMA_NAMES, schemaFile } from './schemas/index.ts';

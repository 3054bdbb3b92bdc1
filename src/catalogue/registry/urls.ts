// Every readable URL of the catalogue's resources, declared once (ADR 0090, 0097): its template
// (the path under the base, `{name}` for a parameter), the resource that answers it, the schema
// its representation names, whether crawlers keep out and, when the resource's route is
// script-style, where the rewrite table sends it. The rewrite table (../rewrites.ts), the
// OpenAPI paths (../openapi/paths.ts adds what a client needs to know), the resources' routes,
// the link builders (pathBuilder), the served schemas (SCHEMA_NAMES) and robots.txt's
// disallowed paths are derived from these lines. Nothing here imports the rest of the
// catalogue, so every folder may build its links from it.

export interface ResourceUrl {
  /** Names the URL (and OpenAPI's operations: `get` + `Work` = `getWork`). Unique. */
  readonly id: string;
  /** ResourceDefinition.name of the resource that answers it. */
  readonly resource: string;
  /** Readable path under the base; `{name}` a path parameter (see isNumberParameter). */
  readonly path: string;
  /**
   * The schema its representation names (`Representation.schema`): served at
   * `/schema/{schema}.xsd` and `.json`, and the OpenAPI document's. SCHEMA_NAMES are these.
   */
  readonly schema?: string;
  /**
   * `disallow`: crawlers keep out of this path and every path under it (robots.txt, RFC 9309):
   * a form, or what answers only a signed-in user. The path up to its first parameter is
   * disallowed.
   */
  readonly robots?: 'disallow';
  /** The navigation entry a page of this URL's resource lights up (the layout's `section`). */
  readonly section?: string;
  /**
   * The script-style route the readable path is rewritten to, its query naming the template's
   * parameters (`/person?slug={slug}`), like mod_rewrite. Absent: the path is the route.
   */
  readonly route?: string;
}

export const RESOURCE_URLS = [
  { id: 'Home', resource: 'home', schema: 'home', path: '/', section: 'home' },
  { id: 'Persons', resource: 'persons', schema: 'persons', path: '/personen', section: 'persons' },
  {
    id: 'Person',
    resource: 'person',
    schema: 'person',
    path: '/personen/{slug}',
    route: '/person?slug={slug}',
  },
  // A person's life dates, their own resource (ADR 0026).
  {
    id: 'LifeDates',
    resource: 'life-dates',
    schema: 'life-dates',
    path: '/personen/{slug}/lebensdaten',
    route: '/lebensdaten?slug={slug}',
  },
  { id: 'Works', resource: 'works', schema: 'works', path: '/werke', section: 'works' },
  { id: 'Work', resource: 'work', schema: 'work', path: '/werke/{slug}', route: '/werk?slug={slug}' },
  // A work's copies and one copy by its number (ADR 0058).
  {
    id: 'Copies',
    resource: 'copies',
    schema: 'copies',
    path: '/werke/{slug}/exemplare',
    route: '/exemplare?werk={slug}',
  },
  {
    id: 'Copy',
    resource: 'copy',
    schema: 'copy',
    path: '/werke/{slug}/exemplare/{nummer}',
    route: '/exemplar?werk={slug}&slug={nummer}',
  },
  // The staff's list of loans due and a user's loans share one route (ResourceDefinition.methodsAt).
  {
    id: 'DueLoans',
    resource: 'loans',
    schema: 'due-loans',
    path: '/ausleihen',
    robots: 'disallow',
    section: 'due-loans',
  },
  {
    id: 'Loans',
    resource: 'loans',
    schema: 'loans',
    path: '/ausleihen/{user_id}',
    route: '/ausleihen?benutzer={user_id}',
  },
  {
    id: 'Loan',
    resource: 'loan',
    schema: 'loan',
    path: '/ausleihen/{user_id}/{loan_id}',
    route: '/ausleihe?benutzer={user_id}&id={loan_id}',
  },
  // A loan's renewal: POST renews it (ADR 0060).
  {
    id: 'Renewal',
    resource: 'renewal',
    path: '/ausleihen/{user_id}/{loan_id}/verlaengerung',
    route: '/verlaengerung?benutzer={user_id}&id={loan_id}',
  },
  { id: 'CheckIn', resource: 'check-in', schema: 'check-in', path: '/rueckgabe', section: 'check-in' },
  { id: 'Desk', resource: 'desk', schema: 'desk', path: '/theke', section: 'desk' },
  // A member's holds, one hold, and a work's queue for staff (ADR 0059).
  {
    id: 'Holds',
    resource: 'holds',
    schema: 'holds',
    path: '/personen/{slug}/vormerkungen',
    route: '/vormerkungen?slug={slug}',
  },
  {
    id: 'Hold',
    resource: 'hold',
    schema: 'hold',
    path: '/personen/{slug}/vormerkungen/{hold_id}',
    route: '/vormerkung?slug={slug}&id={hold_id}',
  },
  {
    id: 'HoldQueue',
    resource: 'hold-queue',
    schema: 'hold-queue',
    path: '/werke/{slug}/vormerkungen',
    route: '/warteschlange?slug={slug}',
  },
  // A person's account and its password (ADR 0063): self and staff only.
  {
    id: 'Account',
    resource: 'account',
    schema: 'account',
    path: '/personen/{slug}/konto',
    route: '/konto?slug={slug}',
  },
  {
    id: 'Password',
    resource: 'account-password',
    schema: 'password',
    path: '/personen/{slug}/konto/passwort',
    route: '/konto/passwort?slug={slug}',
  },
  // A person's notices by e-mail, and everyone's for staff (ADR 0092).
  {
    id: 'PersonNotices',
    resource: 'notices',
    schema: 'notices',
    path: '/personen/{slug}/benachrichtigungen',
    route: '/benachrichtigungen?slug={slug}',
    section: 'my-account',
  },
  { id: 'Notices', resource: 'notices', schema: 'notices', path: '/benachrichtigungen', section: 'notices' },
  // The desk's staff lists (ADR 0092).
  { id: 'Patrons', resource: 'patrons', schema: 'patrons', path: '/leser', section: 'patrons' },
  {
    id: 'HoldShelf',
    resource: 'hold-shelf',
    schema: 'hold-shelf',
    path: '/abholregal',
    section: 'hold-shelf',
  },
  {
    id: 'OverdueLoans',
    resource: 'overdue-loans',
    schema: 'overdue-loans',
    path: '/ausleihen/ueberfaellig',
    section: 'overdue-loans',
  },
  // The patron's settings: e-mail address, language, notices (ADR 0093).
  {
    id: 'Settings',
    resource: 'account-settings',
    schema: 'settings',
    path: '/personen/{slug}/konto/einstellungen',
    route: '/konto/einstellungen?slug={slug}',
  },
  // Password reset by e-mailed link (ADR 0093): the request form, and the link (the token is the secret).
  {
    id: 'PasswordResetRequest',
    resource: 'password-reset-request',
    schema: 'password-reset-request',
    path: '/passwort-vergessen',
  },
  {
    id: 'PasswordReset',
    resource: 'password-reset',
    schema: 'password-reset',
    path: '/passwort-neu/{token}',
    route: '/passwort-neu?token={token}',
  },
  // Staff's circulation rules: item types and closed days (ADR 0084, 0093).
  {
    id: 'ItemTypes',
    resource: 'item-types',
    schema: 'item-types',
    path: '/ausleihregeln/medientypen',
    section: 'rules',
  },
  {
    id: 'ItemType',
    resource: 'item-type',
    schema: 'item-type',
    path: '/ausleihregeln/medientypen/{code}',
    route: '/medientyp?code={code}',
  },
  {
    id: 'ClosedDays',
    resource: 'closed-days',
    schema: 'closed-days',
    path: '/ausleihregeln/schliesstage',
    section: 'rules',
  },
  {
    id: 'ClosedDay',
    resource: 'closed-day',
    schema: 'closed-day',
    path: '/ausleihregeln/schliesstage/{tag}',
    route: '/schliesstag?tag={tag}',
  },
  // The log-in form, one per page it returns to (`?zurueck=…`).
  { id: 'Session', resource: 'session', schema: 'session', path: '/sitzung', robots: 'disallow' },
  {
    id: 'ErrorLog',
    resource: 'error-log',
    schema: 'error-log',
    path: '/protokoll/fehler',
    robots: 'disallow',
    section: 'error-log',
  },
  {
    id: 'ServerStatus',
    resource: 'server-status',
    schema: 'server-status',
    path: '/server-status',
    robots: 'disallow',
    section: 'server-status',
  },
] as const satisfies readonly ResourceUrl[];

export type UrlId = (typeof RESOURCE_URLS)[number]['id'];
/** The navigation's entries: the sections the URLs above name. */
export type Section = Extract<(typeof RESOURCE_URLS)[number], { section: string }>['section'];
/** The representations' schemas: the ones the URLs above name. */
export type SchemaName = Extract<(typeof RESOURCE_URLS)[number], { schema: string }>['schema'];

/** Every schema a URL names, once each, in the order of the URLs. */
export const SCHEMA_NAMES: readonly SchemaName[] = [
  ...new Set(RESOURCE_URLS.flatMap((url) => ('schema' in url ? [url.schema] : []))),
];

// Every readable URL of the catalogue's resources, declared once (ADR 0090): its template (the
// path under the base, `{name}` for a parameter), the resource that answers it and, when the
// resource's route is script-style, where the rewrite table sends it. The rewrite table
// (../rewrites.ts), the OpenAPI paths (../openapi/paths.ts adds what a client needs to know),
// the resources' routes and the link builders (pathBuilder) are derived from these lines.
// Nothing here imports the rest of the catalogue, so every folder may build its links from it.

export interface ResourceUrl {
  /** Names the URL (and OpenAPI's operations: `get` + `Work` = `getWork`). Unique. */
  readonly id: string;
  /** ResourceDefinition.name of the resource that answers it. */
  readonly resource: string;
  /** Readable path under the base; `{name}` a path parameter (see isNumberParameter). */
  readonly path: string;
  /** The navigation entry a page of this URL's resource lights up (the layout's `section`). */
  readonly section?: string;
  /**
   * The script-style route the readable path is rewritten to, its query naming the template's
   * parameters (`/person?slug={slug}`), like mod_rewrite. Absent: the path is the route.
   */
  readonly route?: string;
}

export const RESOURCE_URLS = [
  { id: 'Home', resource: 'home', path: '/', section: 'home' },
  { id: 'Persons', resource: 'persons', path: '/personen', section: 'persons' },
  { id: 'Person', resource: 'person', path: '/personen/{slug}', route: '/person?slug={slug}' },
  // A person's life dates, their own resource (ADR 0026).
  {
    id: 'LifeDates',
    resource: 'life-dates',
    path: '/personen/{slug}/lebensdaten',
    route: '/lebensdaten?slug={slug}',
  },
  { id: 'Works', resource: 'works', path: '/werke', section: 'works' },
  { id: 'Work', resource: 'work', path: '/werke/{slug}', route: '/werk?slug={slug}' },
  // A work's copies and one copy by its number (ADR 0058).
  { id: 'Copies', resource: 'copies', path: '/werke/{slug}/exemplare', route: '/exemplare?werk={slug}' },
  {
    id: 'Copy',
    resource: 'copy',
    path: '/werke/{slug}/exemplare/{nummer}',
    route: '/exemplar?werk={slug}&slug={nummer}',
  },
  // The staff's list of loans due and a user's loans share one route (ResourceDefinition.methodsAt).
  { id: 'DueLoans', resource: 'loans', path: '/ausleihen', section: 'due-loans' },
  { id: 'Loans', resource: 'loans', path: '/ausleihen/{user_id}', route: '/ausleihen?benutzer={user_id}' },
  {
    id: 'Loan',
    resource: 'loan',
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
  { id: 'CheckIn', resource: 'check-in', path: '/rueckgabe', section: 'check-in' },
  { id: 'Desk', resource: 'desk', path: '/theke', section: 'desk' },
  // A member's holds, one hold, and a work's queue for staff (ADR 0059).
  {
    id: 'Holds',
    resource: 'holds',
    path: '/personen/{slug}/vormerkungen',
    route: '/vormerkungen?slug={slug}',
  },
  {
    id: 'Hold',
    resource: 'hold',
    path: '/personen/{slug}/vormerkungen/{hold_id}',
    route: '/vormerkung?slug={slug}&id={hold_id}',
  },
  {
    id: 'HoldQueue',
    resource: 'hold-queue',
    path: '/werke/{slug}/vormerkungen',
    route: '/warteschlange?slug={slug}',
  },
  // A person's account and its password (ADR 0063): self and staff only.
  { id: 'Account', resource: 'account', path: '/personen/{slug}/konto', route: '/konto?slug={slug}' },
  {
    id: 'Password',
    resource: 'account-password',
    path: '/personen/{slug}/konto/passwort',
    route: '/konto/passwort?slug={slug}',
  },
  // A person's notices by e-mail, and everyone's for staff (ADR 0092).
  {
    id: 'PersonNotices',
    resource: 'notices',
    path: '/personen/{slug}/benachrichtigungen',
    route: '/benachrichtigungen?slug={slug}',
    section: 'my-account',
  },
  { id: 'Notices', resource: 'notices', path: '/benachrichtigungen', section: 'notices' },
  // The desk's staff lists (ADR 0092).
  { id: 'Patrons', resource: 'patrons', path: '/leser', section: 'patrons' },
  { id: 'HoldShelf', resource: 'hold-shelf', path: '/abholregal', section: 'hold-shelf' },
  {
    id: 'OverdueLoans',
    resource: 'overdue-loans',
    path: '/ausleihen/ueberfaellig',
    section: 'overdue-loans',
  },
  // The patron's settings: e-mail address, language, notices (ADR 0093).
  {
    id: 'Settings',
    resource: 'account-settings',
    path: '/personen/{slug}/konto/einstellungen',
    route: '/konto/einstellungen?slug={slug}',
  },
  // Password reset by e-mailed link (ADR 0093): the request form, and the link (the token is the secret).
  { id: 'PasswordResetRequest', resource: 'password-reset-request', path: '/passwort-vergessen' },
  {
    id: 'PasswordReset',
    resource: 'password-reset',
    path: '/passwort-neu/{token}',
    route: '/passwort-neu?token={token}',
  },
  // Staff's circulation rules: item types and closed days (ADR 0084, 0093).
  { id: 'ItemTypes', resource: 'item-types', path: '/ausleihregeln/medientypen', section: 'rules' },
  {
    id: 'ItemType',
    resource: 'item-type',
    path: '/ausleihregeln/medientypen/{code}',
    route: '/medientyp?code={code}',
  },
  { id: 'ClosedDays', resource: 'closed-days', path: '/ausleihregeln/schliesstage', section: 'rules' },
  {
    id: 'ClosedDay',
    resource: 'closed-day',
    path: '/ausleihregeln/schliesstage/{tag}',
    route: '/schliesstag?tag={tag}',
  },
  { id: 'Session', resource: 'session', path: '/sitzung' },
  { id: 'ErrorLog', resource: 'error-log', path: '/protokoll/fehler', section: 'error-log' },
  { id: 'ServerStatus', resource: 'server-status', path: '/server-status', section: 'server-status' },
] as const satisfies readonly ResourceUrl[];

export type UrlId = (typeof RESOURCE_URLS)[number]['id'];
/** The navigation's entries: the sections the URLs above name. */
export type Section = Extract<(typeof RESOURCE_URLS)[number], { section: string }>['section'];

// What the resource definitions do not carry, for /openapi.json (ADR 0057): each resource's
// readable URL patterns (the rewrite table maps them onto the route, not back), the schema its
// GET representation names, its query parameters and who must sign in. The METHODS are not
// here: the generator reads them from the registered definitions, so a new one shows up by itself.
import type { HandlerMethod } from '../../http/resource/types.ts';
import type { SchemaName } from '../schemas/index.ts';

export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  readonly type: 'string' | 'integer';
}

export interface DocumentedPath {
  /** ResourceDefinition.name of the resource that answers this path. */
  readonly resource: string;
  /** Readable path under the base, `{name}` for a path parameter (`…_id` ones are numbers). */
  readonly path: string;
  readonly summary: string;
  /** The JSON Schema of GET's 200 (`/schema/{schema}.json`); none: an object, undescribed. */
  readonly schema?: SchemaName;
  readonly query?: readonly QueryParameter[];
  /** Who must be signed in: nobody (`never`), for unsafe methods (`writes`), for everything. */
  readonly signIn: 'never' | 'writes' | 'always';
  /**
   * The URL has only these of its resource's methods (ResourceDefinition.methodsAt says so
   * for the route; test/api/openapi.test.ts checks both against Allow). Absent: all.
   */
  readonly methods?: readonly HandlerMethod[];
}

const PAGING: readonly QueryParameter[] = [
  { name: 'q', type: 'string', description: 'Search terms.' },
  {
    name: 'nach',
    type: 'string',
    description: 'Paging: the page after this key (from the `naechste` link).',
  },
  { name: 'vor', type: 'string', description: 'Paging: the page before this key (from the `vorige` link).' },
  { name: 'anzahl', type: 'integer', description: 'Page size, at most 100.' },
];

/** The works search also has an order (ADR 0080). */
const WORKS_QUERY: readonly QueryParameter[] = [
  ...PAGING,
  {
    name: 'sortierung',
    type: 'string',
    description:
      "A search's order: `titel` (list order, the default) or `relevanz` (exact title and name matches first).",
  },
];

export const DOCUMENTED_PATHS: readonly DocumentedPath[] = [
  { resource: 'home', path: '/', summary: 'The home page', schema: 'home', signIn: 'writes' },
  {
    resource: 'persons',
    path: '/personen',
    summary: 'Persons: search, page, create',
    schema: 'persons',
    query: PAGING,
    signIn: 'writes',
  },
  { resource: 'person', path: '/personen/{slug}', summary: 'One person', schema: 'person', signIn: 'writes' },
  {
    resource: 'life-dates',
    path: '/personen/{slug}/lebensdaten',
    summary: "A person's years of birth and death",
    schema: 'life-dates',
    signIn: 'writes',
  },
  {
    resource: 'works',
    path: '/werke',
    summary: 'Works: search, page, create',
    schema: 'works',
    query: WORKS_QUERY,
    signIn: 'writes',
  },
  { resource: 'work', path: '/werke/{slug}', summary: 'One work', schema: 'work', signIn: 'writes' },
  {
    resource: 'copies',
    path: '/werke/{slug}/exemplare',
    summary: "A work's copies with shelfmark, barcode, location and status; POST adds one (staff)",
    schema: 'copies',
    signIn: 'writes',
  },
  {
    resource: 'copy',
    path: '/werke/{slug}/exemplare/{nummer}',
    summary: 'One copy; PUT/PATCH edit it, DELETE withdraws it (staff)',
    schema: 'copy',
    signIn: 'writes',
  },
  {
    resource: 'loans',
    path: '/ausleihen',
    summary: 'Open loans by due date (staff)',
    schema: 'due-loans',
    signIn: 'always',
    methods: ['GET'],
  },
  {
    resource: 'loans',
    path: '/ausleihen/{user_id}',
    summary: "A user's current loans; POST borrows",
    schema: 'loans',
    signIn: 'always',
  },
  {
    resource: 'loan',
    path: '/ausleihen/{user_id}/{loan_id}',
    summary: 'One loan; DELETE returns it',
    schema: 'loan',
    signIn: 'always',
  },
  {
    resource: 'renewal',
    path: '/ausleihen/{user_id}/{loan_id}/verlaengerung',
    summary: 'POST renews the loan (409 with the reason when it may not be renewed)',
    signIn: 'always',
  },
  {
    resource: 'check-in',
    path: '/rueckgabe',
    summary: "The desk's check-in (staff): POST a copy's barcode to return its open loan",
    schema: 'check-in',
    query: [{ name: 'barcode', type: 'string', description: "A copy's barcode: its latest loan." }],
    signIn: 'always',
  },
  {
    resource: 'holds',
    path: '/personen/{slug}/vormerkungen',
    summary: "A member's open holds; POST places one (only when no copy is free)",
    schema: 'holds',
    signIn: 'always',
  },
  {
    resource: 'hold',
    path: '/personen/{slug}/vormerkungen/{hold_id}',
    summary: 'One hold: its place in the queue or until when a copy is kept; DELETE cancels it',
    schema: 'hold',
    signIn: 'always',
  },
  {
    resource: 'hold-queue',
    path: '/werke/{slug}/vormerkungen',
    summary: "A work's queue of holds (staff)",
    schema: 'hold-queue',
    signIn: 'always',
  },
  {
    resource: 'account',
    path: '/personen/{slug}/konto',
    summary:
      "A person's account (that person and staff); staff PUT creates or changes role and lock, PATCH, DELETE",
    schema: 'account',
    signIn: 'always',
  },
  {
    resource: 'account-password',
    path: '/personen/{slug}/konto/passwort',
    summary: "When the account's password changed; PUT sets a new one (the own account: with the old one)",
    schema: 'password',
    signIn: 'always',
  },
  {
    resource: 'session',
    path: '/sitzung',
    summary: 'The session: GET the log-in form or who is signed in, POST logs in, DELETE logs out',
    schema: 'session',
    signIn: 'never',
  },
  {
    resource: 'error-log',
    path: '/protokoll/fehler',
    summary: 'The last entries of the error log (staff)',
    schema: 'error-log',
    query: [
      { name: 'anzahl', type: 'integer', description: 'The last N entries, at most 1000 (default 100).' },
      { name: 'stufe', type: 'string', description: 'Only entries of this level and above.' },
    ],
    signIn: 'always',
  },
  {
    resource: 'server-status',
    path: '/server-status',
    summary: 'Server status (staff)',
    schema: 'server-status',
    signIn: 'always',
  },
];

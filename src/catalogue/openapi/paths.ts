// What neither the registry nor the resource definitions carry, for /openapi.json (ADRs 0057,
// 0074, 0097), for each URL of the registry (../registry/urls.ts, which holds its path, resource
// and schema): summaries, its query parameters, who may use each method, the body a write takes
// and the problems particular to it. The methods and formats are not here: the generator reads
// them from the registered definitions (methodsAt for a route shared by URLs), so a new one
// shows up by itself (with the defaults below); facts of a method the URL lacks are refused.
// Statuses every operation of a kind can answer (401, 404, 412, 428, 415, ...) are derived in
// ./responses.ts from the method, the access and the path, never listed here.
import type { ErrorCode } from '../../http/errors/index.ts';
import { SLUG_PATTERN } from '../../http/body/index.ts';
import { YEAR_MAX, YEAR_MIN } from '../works/index.ts';
import { ITEM_TYPE_CODE, MAX_FACET_VALUES } from '../works/index.ts';
import type { HandlerMethod } from '../../http/resource/types.ts';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, ORDERS } from '../shared/index.ts';
import type { SchemaName } from '../schemas/index.ts';
import type { BodyName } from './bodies.ts';
import { RESOURCE_URLS, type UrlId } from '../registry/index.ts';
import { STATUS_NAMES } from '../notices/index.ts';
import { MAX_DAYS as MAX_DAYS_OVERDUE } from '../staff-lists/index.ts';

export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
  /** The parameter may repeat (`?dekade=1800&dekade=1810`): its schema is an array of the values. */
  readonly repeats?: true;
}

/**
 * Who may: `anyone` (signing in may show more), `owner` (the person the URL names, signed in,
 * or staff), `staff`. The server checks it; this says it.
 */
export type Access = 'anyone' | 'owner' | 'staff';

export type SuccessStatus = 200 | 201 | 204;

export interface OperationFacts {
  readonly summary?: string;
  readonly access?: Access;
  /** The request body (POST/PUT; PATCH takes a merge patch of PUT's). */
  readonly body?: BodyName;
  /** Default: GET 200, POST 201, PUT 200 or 201, PATCH 200, DELETE 204. */
  readonly success?: readonly SuccessStatus[];
  /** The schema of the 200/201 body; default the path's. */
  readonly answers?: SchemaName;
  /** Refusals particular to this operation (the statuses follow from the codes). */
  readonly refusals?: readonly ErrorCode[];
  /** More for the description (Markdown). */
  readonly description?: string;
}

/** What a client needs to know of one URL of the registry, found by its id. */
export interface PathFacts {
  /** The registry's URL (../registry/urls.ts) these facts are about. */
  readonly id: UrlId;
  readonly summary: string;
  readonly query?: readonly QueryParameter[];
  /** Who may read (GET) and who may write (the other methods), unless an operation says. */
  readonly read: Access;
  readonly write: Access;
  /** Facts of its methods; which methods it has is the resource definition's. */
  readonly operations?: Partial<Record<HandlerMethod, OperationFacts>>;
}

/** A documented path: the registry's URL (resource, readable path, schema) with its facts. */
export interface DocumentedPath extends PathFacts {
  /** ResourceDefinition.name of the resource that answers this path. */
  readonly resource: string;
  /** Readable path under the base, `{name}` for a path parameter (`…_id` ones are numbers). */
  readonly path: string;
  /** The JSON Schema of the representation (`/schema/{schema}.json`); none: undescribed object. */
  readonly schema?: SchemaName;
}

const text = { type: 'string' };
const PAGING: readonly QueryParameter[] = [
  { name: 'q', schema: text, description: 'Search terms.' },
  {
    name: 'nach',
    schema: text,
    description: 'Paging: the page after this key (from the `naechste` link, `rel="next"`).',
  },
  {
    name: 'vor',
    schema: text,
    description: 'Paging: the page before this key (from the `vorige` link, `rel="prev"`).',
  },
  {
    name: 'anzahl',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    description: `Page size (a larger one is capped at ${MAX_PAGE_SIZE}; an unreadable one is the default).`,
  },
];

/** The notice lists' filter and paging (ADR 0092). */
const NOTICE_QUERY: readonly QueryParameter[] = [
  {
    name: 'status',
    schema: { type: 'string', enum: [...STATUS_NAMES] },
    description:
      'Only notices in this state: planned, sent, failed, or obsolete (its loan or hold changed first).',
  },
  ...PAGING.slice(1),
];

/** A facet's parameter: repeatable, up to MAX_FACET_VALUES values, any of which a row may have. */
function facetParameter(name: string, value: Record<string, unknown>, what: string): QueryParameter {
  return {
    name,
    schema: { type: 'array', items: value, maxItems: MAX_FACET_VALUES },
    repeats: true,
    description: `Facet, may repeat: ${what}`,
  };
}

/** The works search also has an order (ADR 0080). */
const WORKS_QUERY: readonly QueryParameter[] = [
  ...PAGING,
  {
    name: 'sortierung',
    schema: { type: 'string', enum: [...ORDERS] },
    description:
      "A search's order: `titel` (list order, the default) or `relevanz` (exact title and name matches first).",
  },
  // Facet filters (ADR 0094): each narrows the list (with or without `q`); given together, all hold.
  // Each may repeat: any of its values (ADR 0099). A filtered page says `X-Robots-Tag: noindex`;
  // every value's URL is in the `facetten` of the answer.
  facetParameter(
    'autor',
    { type: 'string', pattern: SLUG_PATTERN.source, maxLength: 100 },
    "persons' slugs; only their works.",
  ),
  facetParameter(
    'dekade',
    { type: 'integer', multipleOf: 10, minimum: YEAR_MIN, maximum: YEAR_MAX },
    'first years of decades (`1900`); only works whose year lies in one of them.',
  ),
  facetParameter(
    'verfuegbar',
    { type: 'string', enum: ['ja', 'nein'] },
    '`ja`, a copy can be borrowed now; `nein`, none can (all lent, kept or missing); both: every work.',
  ),
  facetParameter(
    'medientyp',
    { type: 'string', pattern: ITEM_TYPE_CODE.source },
    "item types' codes (`buch`, `dvd`, `praesenz`); only works with a copy of one of those types.",
  ),
];

/**
 * The persons list's facet (ADR 0102): the decades of their works, as the works list's `dekade`.
 * A filtered page says `X-Robots-Tag: noindex`; every value's URL is in the `facetten` of the answer.
 */
const PERSONS_QUERY: readonly QueryParameter[] = [
  ...PAGING,
  facetParameter(
    'dekade',
    { type: 'integer', multipleOf: 10, minimum: YEAR_MIN, maximum: YEAR_MAX },
    'first years of decades (`1900`); only persons with a live work whose year lies in one of them.',
  ),
];

/** What a borrow can be refused with, by the loans' POST and the desk alike (loans/borrow-refusals.ts). */
const BORROW_REFUSALS: readonly ErrorCode[] = [
  'SHELFMARK_CONFLICT',
  'SHELFMARK_OVERDUE_LOANS',
  'SHELFMARK_COPY_ON_LOAN',
  'SHELFMARK_COPY_HELD',
  'SHELFMARK_NOT_LENDABLE',
  'SHELFMARK_LOAN_LIMIT',
];

const FACTS: readonly PathFacts[] = [
  {
    id: 'Home',
    summary: 'The home page',
    read: 'anyone',
    write: 'staff',
  },
  {
    id: 'Persons',
    summary: 'Persons: search, page, narrow by decade, create',
    query: PERSONS_QUERY,
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'Search and page the persons' },
      POST: {
        summary: 'Create a person',
        body: 'person',
        answers: 'person',
        refusals: ['SHELFMARK_CONFLICT'],
      },
    },
  },
  {
    id: 'Person',
    summary: 'One person',
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: {
        summary: 'Read a person',
        description:
          'Patrons are private (ADR 0062): a person with an account who is not an author answers 404 ' +
          'unless staff or that person asks.',
      },
      PUT: { summary: 'Create or replace a person', body: 'person', refusals: ['SHELFMARK_CONFLICT'] },
      PATCH: {
        summary: 'Change some of a person’s fields',
        body: 'person',
        refusals: ['SHELFMARK_CONFLICT'],
      },
      DELETE: { summary: 'Delete a person', refusals: ['SHELFMARK_PERSON_HAS_LOANS'] },
    },
  },
  {
    id: 'LifeDates',
    summary: "A person's years of birth and death",
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'Read a person’s life dates' },
      PUT: { summary: 'Replace a person’s life dates', body: 'lifeDates', success: [200] },
    },
  },
  {
    id: 'Works',
    summary: 'Works: search, page, create',
    query: WORKS_QUERY,
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'Search and page the works' },
      POST: { summary: 'Create a work', body: 'work', answers: 'work', refusals: ['SHELFMARK_CONFLICT'] },
    },
  },
  {
    id: 'Work',
    summary: 'One work',
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'Read a work' },
      PUT: { summary: 'Create or replace a work', body: 'work', refusals: ['SHELFMARK_CONFLICT'] },
      PATCH: { summary: 'Change some of a work’s fields', body: 'work', refusals: ['SHELFMARK_CONFLICT'] },
      DELETE: { summary: 'Delete a work', refusals: ['SHELFMARK_CONFLICT'] },
    },
  },
  {
    id: 'Copies',
    summary: "A work's copies with shelfmark, barcode, location and status",
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'List a work’s copies' },
      POST: { summary: 'Add a copy', body: 'copy', answers: 'copy', refusals: ['SHELFMARK_CONFLICT'] },
    },
  },
  {
    id: 'Copy',
    summary: 'One copy',
    read: 'anyone',
    write: 'staff',
    operations: {
      GET: { summary: 'Read a copy' },
      PUT: { summary: 'Replace a copy', body: 'copy', success: [200], refusals: ['SHELFMARK_CONFLICT'] },
      PATCH: { summary: 'Change some of a copy’s fields', body: 'copy', refusals: ['SHELFMARK_CONFLICT'] },
      DELETE: { summary: 'Withdraw a copy', refusals: ['SHELFMARK_COPY_ON_LOAN'] },
    },
  },
  {
    id: 'DueLoans',
    summary: 'Open loans by due date',
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'List the open loans by due date' } },
  },
  {
    id: 'Loans',
    summary: "A user's current loans",
    read: 'owner',
    write: 'owner',
    operations: {
      GET: { summary: 'List a user’s current loans' },
      POST: {
        summary: 'Borrow a work',
        description: 'Members borrow for themselves; staff lend to anyone.',
        body: 'borrow',
        answers: 'loan',
        refusals: BORROW_REFUSALS,
      },
    },
  },
  {
    id: 'Loan',
    summary: 'One loan',
    read: 'owner',
    write: 'owner',
    operations: {
      GET: { summary: 'Read a loan' },
      DELETE: {
        summary: 'Return a loan',
        description:
          'Members return their own only when `SHELFMARK_MEMBER_RETURNS` is on (ADR 0061); else 403.',
      },
    },
  },
  {
    id: 'Renewal',
    summary: 'The renewal of a loan',
    read: 'owner',
    write: 'owner',
    operations: {
      POST: {
        summary: 'Renew a loan',
        body: 'renewal',
        success: [200],
        answers: 'loan',
        refusals: [
          'SHELFMARK_RENEWAL_LIMIT',
          'SHELFMARK_WORK_HELD',
          'SHELFMARK_OVERDUE_LOANS',
          'SHELFMARK_CONFLICT',
        ],
      },
    },
  },
  {
    id: 'CheckIn',
    summary: "The desk's check-in",
    query: [{ name: 'barcode', schema: text, description: "A copy's barcode: its latest loan." }],
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'The check-in form, or a copy’s latest loan' },
      POST: {
        summary: 'Check in a copy by its barcode',
        body: 'checkIn',
        success: [200],
        refusals: ['SHELFMARK_CONFLICT'],
      },
    },
  },
  {
    id: 'Desk',
    summary: 'The desk: a patron by library card, lending the copies in hand (ADR 0082)',
    query: [
      {
        name: 'ausweis',
        schema: text,
        description: 'A library card number (the patron and their loans) or a name to search patrons by.',
      },
      { name: 'ausgeliehen', schema: { type: 'integer' }, description: 'A loan just made, shown as done.' },
    ],
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'The desk: the card form, a patron and their loans, or the patrons a name matches' },
      POST: {
        summary: 'Lend the copy with this barcode (or a work) to the patron with this card',
        body: 'desk',
        success: [201],
        answers: 'loan',
        refusals: BORROW_REFUSALS,
      },
    },
  },
  {
    id: 'Patrons',
    summary: 'The patrons: persons with an account, by name (ADR 0092)',
    query: [
      { ...PAGING[0]!, description: 'A name or a library card number (or part of one).' },
      ...PAGING.slice(1),
    ],
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Search and page the patrons' } },
  },
  {
    id: 'HoldShelf',
    summary: 'The hold shelf: copies kept for a hold, for whom and until when (ADR 0092)',
    query: PAGING.slice(1),
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Page the copies on the hold shelf, the one to run out first first' } },
  },
  {
    id: 'OverdueLoans',
    summary: 'Overdue loans, the longest overdue first (ADR 0092)',
    query: [
      {
        name: 'tage',
        schema: { type: 'integer', minimum: 1, maximum: MAX_DAYS_OVERDUE, default: 1 },
        description: 'Only loans at least this many days overdue (a part of a day counts as one).',
      },
      ...PAGING.slice(1),
    ],
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Page the overdue loans' } },
  },
  {
    id: 'Notices',
    summary: 'Every notice by e-mail, newest first (ADR 0085, 0092)',
    query: NOTICE_QUERY,
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Page every notice, filtered by status' } },
  },
  {
    id: 'PersonNotices',
    summary: "A person's notices by e-mail, newest first (ADR 0092)",
    query: NOTICE_QUERY,
    read: 'owner',
    write: 'owner',
    operations: { GET: { summary: 'Page a person’s notices, filtered by status' } },
  },
  {
    id: 'Holds',
    summary: "A member's open holds",
    read: 'owner',
    write: 'owner',
    operations: {
      GET: { summary: 'List a member’s open holds' },
      POST: {
        summary: 'Place a hold',
        description: 'Only when no copy is free (else 409 `SHELFMARK_COPY_AVAILABLE`: borrow it).',
        body: 'hold',
        answers: 'hold',
        refusals: ['SHELFMARK_COPY_AVAILABLE', 'SHELFMARK_CONFLICT'],
      },
    },
  },
  {
    id: 'Hold',
    summary: 'One hold: its place in the queue or until when a copy is kept',
    read: 'owner',
    write: 'owner',
    operations: { GET: { summary: 'Read a hold' }, DELETE: { summary: 'Cancel a hold' } },
  },
  {
    id: 'HoldQueue',
    summary: "A work's queue of holds",
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Read a work’s queue of holds' } },
  },
  {
    id: 'Account',
    summary: "A person's account",
    read: 'owner',
    write: 'staff',
    operations: {
      GET: { summary: 'Read a person’s account' },
      PUT: {
        summary: 'Create an account or change its role and lock',
        body: 'account',
        refusals: ['SHELFMARK_CONFLICT'],
      },
      PATCH: { summary: 'Change an account’s role or lock', body: 'account' },
      DELETE: { summary: 'Delete an account' },
    },
  },
  {
    id: 'Password',
    summary: "An account's password",
    read: 'owner',
    write: 'owner',
    operations: {
      GET: { summary: 'When the password last changed' },
      PUT: {
        summary: 'Set a new password',
        description: 'The own account needs `altesPasswort`; staff set anyone’s without it.',
        body: 'password',
        success: [204],
      },
    },
  },
  {
    id: 'Settings',
    summary: "A patron's settings: private e-mail address, language of mails, notices",
    read: 'owner',
    write: 'owner',
    operations: {
      GET: { summary: 'Read a patron’s settings' },
      PUT: { summary: 'Replace a patron’s settings', body: 'settings', success: [200] },
      PATCH: { summary: 'Change some of a patron’s settings', body: 'settings' },
    },
  },
  {
    id: 'PasswordResetRequest',
    summary: 'Asking for a password reset link by e-mail',
    query: [
      {
        name: 'angefordert',
        schema: text,
        description: 'The page after a request (a form’s 303 goes there): it says the link is on its way.',
      },
    ],
    read: 'anyone',
    write: 'anyone',
    operations: {
      GET: { summary: 'Whether reset by e-mail is set up; HTML: the request form' },
      POST: {
        summary: 'Ask for a reset link for a user name or e-mail address',
        description:
          'The answer is the same whether or not an account was found; each account it names that has an address gets a link. Rate-limited per given name or address and per client.',
        body: 'passwordResetRequest',
        success: [204],
        refusals: ['SHELFMARK_TOO_MANY_REQUESTS', 'SHELFMARK_SERVICE_UNAVAILABLE'],
      },
    },
  },
  {
    id: 'PasswordReset',
    summary: 'A password reset link (single use, expires)',
    read: 'anyone',
    write: 'anyone',
    operations: {
      GET: {
        summary: 'Whose account the link is for, until when it works',
        refusals: ['SHELFMARK_RESET_LINK_INVALID'],
      },
      POST: {
        summary: 'Set the new password; every session of the account ends',
        body: 'passwordReset',
        success: [204],
        refusals: ['SHELFMARK_RESET_LINK_INVALID'],
      },
    },
  },
  {
    id: 'ItemTypes',
    summary: 'The item types: how each kind of copy lends (ADR 0084)',
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'List the item types' },
      POST: {
        summary: 'Create an item type',
        body: 'itemTypeNew',
        answers: 'item-type',
        refusals: ['SHELFMARK_CONFLICT'],
      },
    },
  },
  {
    id: 'ItemType',
    summary: 'An item type',
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'Read an item type' },
      PUT: { summary: 'Replace an item type (its code stays)', body: 'itemType', success: [200] },
      PATCH: { summary: 'Change some of an item type', body: 'itemType' },
      DELETE: {
        summary: 'Delete an item type no copy has',
        refusals: ['SHELFMARK_ITEM_TYPE_IN_USE'],
      },
    },
  },
  {
    id: 'ClosedDays',
    summary: 'The closed days: nothing falls due on them (ADR 0084)',
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'List the closed days' },
      POST: {
        summary: 'Add a closed day',
        body: 'closedDayNew',
        answers: 'closed-day',
        refusals: ['SHELFMARK_CONFLICT'],
      },
    },
  },
  {
    id: 'ClosedDay',
    summary: 'A closed day',
    read: 'staff',
    write: 'staff',
    operations: {
      GET: { summary: 'Read a closed day' },
      PUT: { summary: 'Add the day or change its reason', body: 'closedDay' },
      DELETE: { summary: 'Open the day again' },
    },
  },
  {
    id: 'Session',
    summary: 'The session',
    read: 'anyone',
    write: 'anyone',
    operations: {
      GET: { summary: 'Who is signed in (and the CSRF token), or the log-in form' },
      POST: {
        summary: 'Log in: set the session cookie',
        description: 'Needs an `Origin` (or `Referer`) of this server, like every write of a cookie session.',
        body: 'login',
        success: [200],
        refusals: ['SHELFMARK_UNAUTHENTICATED', 'SHELFMARK_TOO_MANY_REQUESTS'],
      },
      DELETE: { summary: 'Log out: clear the session cookie' },
    },
  },
  {
    id: 'ErrorLog',
    summary: 'The last entries of the error log',
    query: [
      {
        name: 'anzahl',
        schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
        description: 'The last N entries.',
      },
      {
        name: 'stufe',
        schema: { type: 'string', pattern: '^(emerg|alert|crit|error|warn|notice|info|debug|trace[1-8])$' },
        description: 'Only entries of this level and above.',
      },
    ],
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Read the last entries of the error log' } },
  },
  {
    id: 'ServerStatus',
    summary: 'Server status',
    read: 'staff',
    write: 'staff',
    operations: { GET: { summary: 'Read the server status' } },
  },
];

/** Every URL of the registry with its facts, in the registry's order; one without facts throws. */
export const DOCUMENTED_PATHS: readonly DocumentedPath[] = RESOURCE_URLS.map((url) => {
  const facts = FACTS.find((f) => f.id === url.id);
  if (!facts) throw new Error(`openapi/paths.ts has no facts for the URL ${url.id} (${url.path})`);
  return { ...facts, resource: url.resource, path: url.path, ...('schema' in url && { schema: url.schema }) };
});

// The configuration table (ADR 0004): one row per option — environment variable, flag,
// description, default and parser. loadConfig and the Config type are derived from it, so
// adding an option is adding a row here (and a line in the README's table).
import path from 'node:path';
import {
  addressList,
  originList,
  baseUrl,
  boolean,
  directory,
  email,
  integer,
  oneOf,
  text,
  type Basics,
  type OptionSpec,
  type Parsed,
} from './options.ts';

export const LOG_LEVELS = ['emerg', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const OPTIONS = {
  port: {
    env: 'PORT',
    flag: 'port',
    description: 'TCP port to listen on',
    fallback: '3000',
    parse: integer(0, 65535),
  },
  host: {
    env: 'HOST',
    flag: 'host',
    description: 'address to listen on',
    fallback: '127.0.0.1',
    parse: text,
  },
  baseUrl: {
    env: 'SHELFMARK_BASE_URL',
    flag: 'base-url',
    description: 'public URL; a path (https://example.org/katalog) makes Shelfmark answer under it',
    derive: ({ port }) => `http://localhost:${port}`,
    parse: baseUrl,
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    flag: 'database-url',
    description: 'postgres://… for PostgreSQL; default: the SQLite file in the data directory',
    derive: ({ dataDir }) => path.join(dataDir, 'shelfmark.db'),
    parse: text,
  },
  dataDir: {
    env: 'SHELFMARK_DATA_DIR',
    flag: 'data-dir',
    description: 'SQLite file',
    fallback: './data',
    parse: directory,
  },
  secret: {
    env: 'SHELFMARK_SECRET',
    flag: 'secret',
    description:
      'key for session cookies and CSRF tokens (≥ 32 characters); generated once into the database when unset',
    parse: (s: string): Parsed<string> =>
      s.length >= 32 ? { ok: true, value: s } : { ok: false, error: 'must be at least 32 characters' },
  },
  logDir: {
    env: 'SHELFMARK_LOG_DIR',
    flag: 'log-dir',
    description: 'directory of access.log and error.log',
    fallback: './logs',
    parse: directory,
  },
  accessLog: {
    env: 'SHELFMARK_ACCESS_LOG',
    flag: 'access-log',
    description: 'access log path; - for stdout; off for none',
    derive: ({ logDir }) => path.join(logDir, 'access.log'),
    parse: text,
  },
  errorLog: {
    env: 'SHELFMARK_ERROR_LOG',
    flag: 'error-log',
    description: 'error log path; - for stderr',
    derive: ({ logDir }) => path.join(logDir, 'error.log'),
    parse: text,
  },
  accessLogFormat: {
    env: 'SHELFMARK_ACCESS_LOG_FORMAT',
    flag: 'access-log-format',
    description: 'combined, common, or an Apache LogFormat string',
    fallback: 'combined',
    parse: text,
  },
  logLevel: {
    env: 'SHELFMARK_LOG_LEVEL',
    flag: 'log-level',
    description: 'error-log LogLevel',
    fallback: 'warn',
    parse: oneOf(LOG_LEVELS),
  },
  documentRoot: {
    env: 'SHELFMARK_DOCUMENT_ROOT',
    flag: 'document-root',
    description:
      "the path httpd's DocumentRoot would be; only written into error-log entries (AH00128, AH01630) for fail2ban",
    fallback: '/var/www/html',
    parse: text,
  },
  displayErrors: {
    env: 'SHELFMARK_DISPLAY_ERRORS',
    flag: 'display-errors',
    description: 'show error details in 500 responses (development only)',
    fallback: '0',
    parse: boolean,
  },
  trustProxy: {
    env: 'SHELFMARK_TRUST_PROXY',
    flag: 'trust-proxy',
    description: 'comma-separated proxy addresses/CIDRs whose X-Forwarded-* headers are believed',
    fallback: '',
    parse: addressList,
  },
  corsOrigins: {
    env: 'SHELFMARK_CORS_ORIGINS',
    flag: 'cors-origins',
    description:
      'comma-separated origins (https://app.example) that may write and read private resources across origins, with credentials; any origin may read public ones',
    fallback: '',
    parse: originList,
  },
  workers: {
    env: 'SHELFMARK_WORKERS',
    flag: 'workers',
    description: 'worker processes (0 = serve in the main process)',
    fallback: '1',
    parse: integer(0, 64),
  },
  requirePreconditions: {
    env: 'SHELFMARK_REQUIRE_PRECONDITIONS',
    flag: 'require-preconditions',
    description: 'PUT/DELETE without If-Match → 428',
    fallback: '0',
    parse: boolean,
  },
  cacheMiB: {
    env: 'SHELFMARK_CACHE_MIB',
    flag: 'cache-mib',
    description: 'MiB of rendered representations each process keeps (0 = no cache); ADR 0048',
    fallback: '128',
    parse: integer(0, 65536),
  },
  holdDays: {
    env: 'SHELFMARK_HOLD_DAYS',
    flag: 'hold-days',
    description: 'days a returned copy is kept for the first hold in the queue (ADR 0059)',
    fallback: '7',
    parse: integer(1, 365),
  },
  maxRenewals: {
    env: 'SHELFMARK_MAX_RENEWALS',
    flag: 'max-renewals',
    description: 'how often a loan may be renewed (ADR 0060)',
    fallback: '2',
    parse: integer(0, 100),
  },
  memberReturns: {
    env: 'SHELFMARK_MEMBER_RETURNS',
    flag: 'member-returns',
    description: 'members may return their own loans (default: returns are checked in by staff); ADR 0061',
    fallback: '0',
    parse: boolean,
  },
  overdueBlockDays: {
    env: 'SHELFMARK_OVERDUE_BLOCK_DAYS',
    flag: 'overdue-block-days',
    description: 'a loan overdue by more than this many days blocks its borrower from borrowing; ADR 0061',
    fallback: '14',
    parse: integer(0, 3650),
  },
  adminEmail: {
    env: 'SHELFMARK_ADMIN_EMAIL',
    flag: 'admin-email',
    description:
      "the OAI-PMH repository's adminEmail (ADR 0081); default webmaster@ the base URL's host (.localdomain added to a host without a dot)",
    parse: email,
  },
  loanLimit: {
    env: 'SHELFMARK_LOAN_LIMIT',
    flag: 'loan-limit',
    description: 'open loans one member may have in all (0 = no limit); item types may allow fewer; ADR 0084',
    fallback: '20',
    parse: integer(0, 100000),
  },
  smtpHost: {
    env: 'SHELFMARK_SMTP_HOST',
    flag: 'smtp-host',
    description: 'SMTP server for notices and password resets (unset: no mail is sent); ADR 0085',
    parse: text,
  },
  smtpPort: {
    env: 'SHELFMARK_SMTP_PORT',
    flag: 'smtp-port',
    description: 'SMTP port (465 with --smtp-tls on, else usually 25 or 587)',
    fallback: '25',
    parse: integer(1, 65535),
  },
  smtpTls: {
    env: 'SHELFMARK_SMTP_TLS',
    flag: 'smtp-tls',
    description: 'off (plain SMTP), starttls (must upgrade) or on (TLS from the start)',
    fallback: 'off',
    parse: oneOf(['off', 'starttls', 'on'] as const),
  },
  smtpUser: {
    env: 'SHELFMARK_SMTP_USER',
    flag: 'smtp-user',
    description: 'SMTP AUTH user name (unset: no AUTH)',
    parse: text,
  },
  smtpPassword: {
    env: 'SHELFMARK_SMTP_PASSWORD',
    flag: 'smtp-password',
    description: 'SMTP AUTH password',
    parse: text,
  },
  smtpFrom: {
    env: 'SHELFMARK_SMTP_FROM',
    flag: 'smtp-from',
    description: 'the From address of notices',
    fallback: 'Bibliothek <noreply@localhost>',
    parse: text,
  },
  noticeIntervalSeconds: {
    env: 'SHELFMARK_NOTICE_INTERVAL',
    flag: 'notice-interval',
    description:
      'seconds between notice runs in each serve process (0: only `shelfmark notices` sends); ADR 0085',
    fallback: '300',
    parse: integer(0, 86400),
  },
  noticeDueSoonDays: {
    env: 'SHELFMARK_NOTICE_DUE_SOON_DAYS',
    flag: 'notice-due-soon-days',
    description: 'days before the due date a "due soon" notice goes out (0: none)',
    fallback: '3',
    parse: integer(0, 365),
  },
  noticeFirstReminderDays: {
    env: 'SHELFMARK_NOTICE_FIRST_REMINDER_DAYS',
    flag: 'notice-first-reminder-days',
    description: 'days after the due date of the first overdue reminder',
    fallback: '1',
    parse: integer(0, 365),
  },
  noticeSecondReminderDays: {
    env: 'SHELFMARK_NOTICE_SECOND_REMINDER_DAYS',
    flag: 'notice-second-reminder-days',
    description: 'days after the due date of the second overdue reminder (0: none)',
    fallback: '14',
    parse: integer(0, 3650),
  },
  demo: {
    env: 'SHELFMARK_DEMO',
    flag: 'demo',
    description: 'load demo data into an empty database (--no-demo to skip)',
    fallback: '1',
    parse: boolean,
  },
} satisfies Record<string, OptionSpec<unknown>>;

type Options = typeof OPTIONS;
type ValueOf<S> = S extends OptionSpec<infer T> ? T : never;
type HasDefault<S> = S extends { fallback: string } | { derive: unknown } ? true : false;

/** The validated configuration: an option with a default (or a derived one) is always set. */
export type Config = {
  -readonly [K in keyof Options]: HasDefault<Options[K]> extends true
    ? ValueOf<Options[K]>
    : ValueOf<Options[K]> | undefined;
};

// The basics the derived defaults read are options with plain defaults of the same types.
const _basicsAreOptions: Config extends Basics ? true : never = true;

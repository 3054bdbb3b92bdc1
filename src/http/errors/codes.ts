// Every error code the resource layer can answer with. docs/errors.md lists each one; a test
// checks that it does. Add a code here (and there) rather than inventing one at the throw site.

export const ERROR_CODES = {
  SHELFMARK_BAD_REQUEST: { status: 400, title: 'Bad Request' },
  SHELFMARK_BODY_MALFORMED: { status: 400, title: 'Bad Request' },
  SHELFMARK_UNAUTHENTICATED: { status: 401, title: 'Unauthorized' },
  SHELFMARK_FORBIDDEN: { status: 403, title: 'Forbidden' },
  SHELFMARK_CSRF_FAILED: { status: 403, title: 'Forbidden' },
  SHELFMARK_NOT_FOUND: { status: 404, title: 'Not Found' },
  SHELFMARK_METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  SHELFMARK_NOT_ACCEPTABLE: { status: 406, title: 'Not Acceptable' },
  SHELFMARK_CONFLICT: { status: 409, title: 'Conflict' },
  SHELFMARK_PERSON_HAS_LOANS: { status: 409, title: 'Conflict' },
  /** A hold was asked for while a copy is free: borrow it instead (issue 12, ADR 0059). */
  SHELFMARK_COPY_AVAILABLE: { status: 409, title: 'Conflict' },
  /** A loan's renewals used up (ADR 0060). */
  SHELFMARK_RENEWAL_LIMIT: { status: 409, title: 'Conflict' },
  /** A loan cannot be renewed: another member holds the work (ADR 0060). */
  SHELFMARK_WORK_HELD: { status: 409, title: 'Conflict' },
  SHELFMARK_OVERDUE_LOANS: { status: 409, title: 'Conflict' },
  SHELFMARK_COPY_ON_LOAN: { status: 409, title: 'Conflict' },
  /** The last usable staff account would be deleted, locked or demoted (ADR 0077). */
  SHELFMARK_LAST_STAFF: { status: 409, title: 'Conflict' },
  /** The copy's item type is not for loan (ADR 0084). */
  SHELFMARK_NOT_LENDABLE: { status: 409, title: 'Conflict' },
  /** The member's open loans reach the limit, in all or of the item type (ADR 0084). */
  SHELFMARK_LOAN_LIMIT: { status: 409, title: 'Conflict' },
  /** The copy asked for is kept on the hold shelf for another member (ADR 0082). */
  SHELFMARK_COPY_HELD: { status: 409, title: 'Conflict' },
  /** An item type that copies still have cannot be deleted (ADR 0093). */
  SHELFMARK_ITEM_TYPE_IN_USE: { status: 409, title: 'Conflict' },
  SHELFMARK_GONE: { status: 410, title: 'Gone' },
  /** A password reset link that was used or has expired (ADR 0093). */
  SHELFMARK_RESET_LINK_INVALID: { status: 410, title: 'Gone' },
  SHELFMARK_PRECONDITION_FAILED: { status: 412, title: 'Precondition Failed' },
  SHELFMARK_BODY_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  SHELFMARK_URI_TOO_LONG: { status: 414, title: 'URI Too Long' },
  SHELFMARK_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  SHELFMARK_VALIDATION_FAILED: { status: 422, title: 'Unprocessable Content' },
  SHELFMARK_PRECONDITION_REQUIRED: { status: 428, title: 'Precondition Required' },
  SHELFMARK_TOO_MANY_REQUESTS: { status: 429, title: 'Too Many Requests' },
  SHELFMARK_INTERNAL_ERROR: { status: 500, title: 'Internal Server Error' },
  SHELFMARK_NOT_IMPLEMENTED: { status: 501, title: 'Not Implemented' },
  SHELFMARK_SERVICE_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  SHELFMARK_DATABASE_BUSY: { status: 503, title: 'Service Unavailable' },
  SHELFMARK_DATABASE_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The generic code for a status, used when an error (e.g. one of Fastify's) carries only a status. */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, entry] of Object.entries(ERROR_CODES) as [ErrorCode, { status: number }][]) {
    if (entry.status === status) return code;
  }
  return status < 500 ? 'SHELFMARK_BAD_REQUEST' : 'SHELFMARK_INTERNAL_ERROR';
}

// The error a handler (or hook) throws to answer with a status other than 2xx/3xx. The layer
// turns it into RFC 9457 problem details in the negotiated format.
import { boundedDetail } from './bounded-detail.ts';
import { ERROR_CODES, type ErrorCode } from './codes.ts';
import type { Lang } from '../resource/types.ts';

/**
 * The detail for people, in each interface language: HTML error pages show it in the page's
 * language. Problem bodies (JSON, XML) keep `detail`, which is English like their `title`.
 */
export type LocalDetail = Readonly<Record<Lang, string>>;

/** One field-level message of a 422 (`errors` extension member). */
export interface FieldError {
  readonly field: string;
  readonly detail: string;
}

/** A link to one available representation (`available` extension member of a 406). */
export interface AvailableLink {
  readonly type: string;
  readonly label: string;
  readonly url: string;
}

/** Extension members the problem schemas know (see /schema/problem.xsd and .json). */
export interface ProblemExtensions {
  readonly errors?: readonly FieldError[];
  readonly available?: readonly AvailableLink[];
}

export interface HttpErrorOptions {
  readonly detail?: string;
  readonly localDetail?: LocalDetail;
  /** Overrides the code's usual title (the HTTP status phrase). */
  readonly title?: string;
  readonly extensions?: ProblemExtensions;
  /** Response headers, e.g. `Allow`, `Retry-After`, `Accept-Post`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly title: string;
  readonly detail: string | undefined;
  readonly localDetail: LocalDetail | undefined;
  readonly extensions: ProblemExtensions;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, options: HttpErrorOptions = {}) {
    const detail = options.detail === undefined ? undefined : boundedDetail(options.detail);
    super(detail ?? ERROR_CODES[code].title, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'HttpError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.title = options.title ?? ERROR_CODES[code].title;
    this.detail = detail;
    this.localDetail = options.localDetail;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

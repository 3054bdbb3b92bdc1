// Which statuses an operation answers, derived from what it is (ADR 0074): its method, who may
// use it, whether it takes a body, whether its path names a resource, and the refusals its
// table entry (./paths.ts) lists. One rule per line, so a new operation gets them by itself.
import { ERROR_CODES, type ErrorCode } from '../../http/errors/index.ts';
import type { HandlerMethod } from '../../http/resource/types.ts';
import type { Access, SuccessStatus } from './paths.ts';

export interface OperationShape {
  readonly method: HandlerMethod;
  readonly access: Access;
  readonly hasBody: boolean;
  readonly path: string;
  readonly success: readonly SuccessStatus[];
  readonly refusals: readonly ErrorCode[];
}

export const DEFAULT_SUCCESS: Record<HandlerMethod, readonly SuccessStatus[]> = {
  GET: [200],
  POST: [201],
  PUT: [200, 201],
  PATCH: [200],
  DELETE: [204],
};

/** Every status, success first, in ascending order within each kind. */
export function operationStatuses(op: OperationShape): number[] {
  const unsafe = op.method !== 'GET';
  const names = /\{[^}]+\}/.test(op.path);
  const statuses = new Set<number>(op.success);
  if (op.method === 'GET') statuses.add(304); // If-None-Match / If-Modified-Since
  if (/\{slug\}/.test(op.path)) statuses.add(unsafe ? 308 : 301); // a renamed slug moved
  if (op.hasBody) statuses.add(303); // an HTML form: see the result
  // Any request: a bad query or URL, wrong credentials (and too many of them), an unknown
  // `?format=`, an Accept that admits nothing, a fault, the database unavailable.
  for (const s of [400, 401, 404, 406, 429, 500, 503]) statuses.add(s);
  if (op.access !== 'anyone' || unsafe) statuses.add(403); // access rules; CSRF for cookie writes
  if (names) statuses.add(410); // deleted, ended
  if (op.hasBody) for (const s of [413, 415, 422]) statuses.add(s);
  if (op.method === 'PUT' || op.method === 'PATCH' || op.method === 'DELETE') {
    statuses.add(412); // If-Match (or a form's _version) stale
    statuses.add(428); // none, while preconditions are required
  }
  for (const code of op.refusals) statuses.add(ERROR_CODES[code].status);
  return [...statuses].sort((a, b) => a - b);
}

/** The problem codes a status stands for (docs/errors.md), for its description. */
export function codesOf(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);
}

/** The component name of a problem status: `NotFound`, `PreconditionRequired`, ... */
export function problemResponseName(status: number): string {
  const code = codesOf(status)[0];
  if (!code) throw new Error(`no problem code for status ${status}`);
  return ERROR_CODES[code].title.replace(/[^A-Za-z]/g, '');
}

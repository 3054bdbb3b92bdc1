// Test helpers for the write handlers: contexts for staff, members and anonymous clients, and
// running a resource's method the way the layer would (allowing for thrown HttpErrors).
import assert from 'node:assert/strict';
import type {
  Format,
  HandlerMethod,
  Outcome,
  Principal,
  Representation,
  ResourceDefinition,
} from '../../../src/http/resource/types.ts';
import { etagOf } from '../../../src/http/conditional/conditional.ts';
import { renderRepresentation } from '../../../src/http/representation/render.ts';
import { HttpError } from '../../../src/catalogue/shared/errors.ts';
import { fakeContext, type FakeContextOptions } from './fakes.ts';

export const STAFF: Principal = { id: 7, username: 'personal', role: 'staff' };
export const MEMBER: Principal = { id: 8, username: 'anna', role: 'member' };

/** Runs a method as staff asking for JSON (unless `opts` say otherwise); returns its outcome, or the HttpError it threw. */
export async function run(
  resource: ResourceDefinition,
  method: HandlerMethod,
  opts: FakeContextOptions = {},
): Promise<Outcome | HttpError> {
  const handler = resource.methods[method];
  assert.ok(handler, `${resource.name} has no ${method}`);
  try {
    return await handler(fakeContext({ user: STAFF, format: 'json', ...opts, method }));
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

export function statusOf(result: Outcome | HttpError): number {
  if (result instanceof HttpError) return result.status;
  return result.type === 'representation' ? (result.status ?? 200) : result.status;
}

export function fieldsOf(result: Outcome | HttpError): string[] {
  assert.ok(result instanceof HttpError, 'expected an HttpError');
  assert.equal(result.status, 422);
  return (result.extensions.errors ?? []).map((e) => e.field);
}

export function representationOf(result: Outcome | HttpError): Representation<unknown> {
  assert.ok(!(result instanceof HttpError), `unexpected ${result instanceof HttpError ? result.status : ''}`);
  assert.equal(result.type, 'representation');
  return result.representation as Representation<unknown>;
}

/** The body the layer would send for a representation, in a format. */
export function bodyOf(rep: Representation<unknown>, format: Format, opts: FakeContextOptions = {}): string {
  return renderRepresentation(rep, fakeContext({ user: STAFF, ...opts, format }));
}

/** The ETag the layer would send with a representation in a format. */
export function etagFor(rep: Representation<unknown>, format: Format): string {
  return etagOf(bodyOf(rep, format));
}

// Authorization before the body is read (ADR 0077): a write its handler refuses for this client
// whatever the body says (`refuseUnread`, resource/types.ts) gets that 401/403 unread, so a
// megabyte of XML from nobody costs no parse; Node discards the body. Decidable only when every
// handler the request could reach refuses: a form POST may carry `_method=PUT|DELETE`.
import type { FastifyRequest } from 'fastify';
import type { HttpError } from '../errors/http-error.ts';
import type { Handler, HandlerMethod, ResourceDefinition } from '../resource/types.ts';
import type { RequestState } from './request-state.ts';

/** The handlers a request with this method and body type could reach. */
function reachable(
  resource: ResourceDefinition,
  method: string,
  form: boolean,
  at: readonly HandlerMethod[] | undefined,
): (Handler | undefined)[] {
  const names: HandlerMethod[] =
    method === 'POST' && form ? ['POST', 'PUT', 'DELETE'] : [method as HandlerMethod];
  return names.map((name) =>
    (at && !at.includes(name)) || !Object.hasOwn(resource.methods, name) ? undefined : resource.methods[name],
  );
}

/** Whether a body-carrying request to `resource` may have to be refused unread (no I/O). */
export function mayRefuseUnread(resource: ResourceDefinition | undefined, method: string): boolean {
  if (!resource || method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return Object.values(resource.methods).some((handler) => handler?.refuseUnread !== undefined);
}

/**
 * The refusal to answer unread, or undefined (read and parse the body as usual). Runs after the
 * pipeline's authenticate stage, so a failed Basic attempt was refused (401/429) already.
 */
export async function unreadRefusal(
  state: RequestState,
  request: FastifyRequest,
  resource: ResourceDefinition,
): Promise<HttpError | undefined> {
  const resolved = state.resolved;
  if (resolved.kind !== 'resource') return undefined;
  const handlers = reachable(
    resource,
    request.method,
    state.bodyType === 'form',
    resource.methodsAt?.(resolved.query),
  );
  if (handlers.some((h) => h?.refuseUnread === undefined)) return undefined;
  const { principal } = await state.authentication(request);
  const refusals = handlers.map((h) => h?.refuseUnread?.(principal));
  return refusals.every((r) => r !== undefined) ? refusals[0] : undefined;
}

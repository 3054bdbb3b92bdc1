// The listening socket the supervisor keeps, as httpd's parent keeps its listeners: bound once in
// the supervisor and inherited by every worker, so the port stays open while workers die and
// are replaced. A connection that arrives while no worker accepts waits in the kernel's backlog
// and is accepted by the next worker instead of being refused (ADR 0087).
//
// node:cluster's shared handles cannot do this: the supervisor closes a shared socket when its
// last worker leaves. Node has no public call that binds a TCP socket without also accepting on
// it, so this uses net's `_createServerHandle` — the function node:cluster itself binds with.
// The supervisor's handle is bound but never listened on in its own event loop, so it never
// accepts; `listen()` is called by the workers on the same socket, and the LISTEN state belongs
// to the socket, not to a process: it lasts as long as any process holds the descriptor.
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import util from 'node:util';

/** The part of libuv's TCP handle used here. */
interface TcpHandle {
  readonly fd: number;
  close(): void;
  getsockname(out: { address?: string; port?: number }): number;
}

type CreateServerHandle = (
  address: string | null,
  port: number | null,
  addressType: number | null,
  fd?: number,
) => TcpHandle | number;

const createServerHandle = (net as unknown as { _createServerHandle: CreateServerHandle })
  ._createServerHandle;

/** A socket bound in the supervisor: its descriptor, the port it got, and how to close it. */
export interface KeptSocket {
  readonly fd: number;
  readonly port: number;
  close(): void;
}

/** A failed bind, with httpd's `(errno)Text` prefix for the error log. */
export class BindError extends Error {
  readonly code: string;
  readonly address: string;
  readonly osError: string;
  constructor(code: string, address: string) {
    const errno = (os.constants.errno as Record<string, number | undefined>)[code] ?? 0;
    const text = errno ? util.getSystemErrorMessage(-errno) : code;
    const osError = `(${errno})${text.charAt(0).toUpperCase()}${text.slice(1)}`;
    super(`${osError}: could not bind to address ${address}`);
    this.code = code;
    this.address = address;
    this.osError = osError;
  }
}

/** Binds host:port (a name is looked up; port 0: any free port) without listening; throws BindError. */
export async function bindKeptSocket(host: string, port: number): Promise<KeptSocket> {
  const ip = net.isIP(host) === 0 ? (await lookup(host)).address : host;
  const family = net.isIPv6(ip) ? 6 : 4;
  const address = family === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
  const handle = createServerHandle(ip, port, family);
  if (typeof handle === 'number') {
    throw new BindError(util.getSystemErrorName(handle), address);
  }
  // libuv defers a bind's EADDRINUSE to listen(); the socket is then left unbound (port 0).
  const name: { port?: number } = {};
  const err = handle.getsockname(name);
  if (err !== 0 || !name.port || (port !== 0 && name.port !== port)) {
    handle.close();
    throw new BindError(err !== 0 ? util.getSystemErrorName(err) : 'EADDRINUSE', address);
  }
  return { fd: handle.fd, port: name.port, close: () => handle.close() };
}

/** In a worker: listen on the socket inherited as descriptor `fd` (not through node:cluster). */
export function listenOnInherited(server: net.Server, fd: number): Promise<void> {
  const handle = createServerHandle(null, null, null, fd);
  if (typeof handle === 'number') {
    return Promise.reject(new Error(`inherited descriptor ${fd}: ${util.getSystemErrorName(handle)}`));
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A handle object listens in this process alone (net's exclusive path), never via the supervisor.
    server.listen(handle as unknown as net.ListenOptions, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

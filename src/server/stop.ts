// Graceful shutdown: stop accepting, let every accepted request finish within a grace period,
// then close what is left (graceful stop and restart, docs/decisions/0013-supervisor.md).
// Node's http `server.close()` also destroys every connection it counts as idle, and that
// includes one just accepted whose request is still unread in the socket buffer: the client
// sees a reset for a request it sent before the server stopped. Here the listener is closed
// alone; a connection is closed once it has been answered (its response says `Connection:
// close`) or when it sits idle after a response; one that has not sent its first request yet
// gets until the grace period ends.
import type http from 'node:http';
import net, { type Socket } from 'node:net';
import { stateOf } from './connection.ts';

type WithResponse = Socket & { _httpMessage?: http.ServerResponse | null };

/**
 * A `stop(graceMs)` for `server`: `onClosing` runs once when stopping begins (responses started
 * afterwards send `Connection: close`); connections idle after a response are closed every 100 ms.
 */
export function gracefulStop(
  server: http.Server,
  onClosing: () => void,
): (graceMs?: number) => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const sweep = (): void => {
    for (const socket of sockets) {
      const res = (socket as WithResponse)._httpMessage;
      if (res) {
        // In flight: answered, then closed (no further request on this connection).
        if (!res.headersSent) res.setHeader('Connection', 'close');
        continue;
      }
      const st = stateOf(socket);
      // Kept alive after a response, nothing of a next request read: close it now.
      if (st === undefined || (st.served > 0 && st.bytes === 0)) socket.destroy();
    }
  };
  let stopping: Promise<void> | undefined;
  return (graceMs = 10_000) => {
    if (stopping) return Promise.resolve();
    onClosing();
    stopping = new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, graceMs).unref();
      const idle = setInterval(sweep, 100).unref();
      net.Server.prototype.close.call(server, () => {
        clearTimeout(force);
        clearInterval(idle);
        resolve();
      });
      sweep();
    });
    return stopping;
  };
}

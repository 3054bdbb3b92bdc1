// Sends exact bytes over a TCP socket and collects the answer until the server closes.
import net from 'node:net';

export function sendRaw(port: number, bytes: Buffer | undefined, maxMs = 5000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      if (bytes?.length) socket.write(bytes);
    });
    const timer = setTimeout(() => socket.destroy(), maxMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

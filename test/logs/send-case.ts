// Sends one raw-byte case and collects the answer until the server closes, ending the client
// side as the case says; also returns the client's port (error-log entries name it).
import net from 'node:net';

export function sendCase(
  port: number,
  bytes: Buffer,
  end: 'half' | 'close' | null | undefined,
  maxMs = 3000,
): Promise<{ answer: Buffer; clientPort: number }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let clientPort = 0;
    const socket = net.connect(port, '127.0.0.1', () => {
      clientPort = socket.localPort ?? 0;
      socket.write(bytes);
      if (end === 'half') socket.end();
      if (end === 'close') setTimeout(() => socket.destroy(), 300);
    });
    const timer = setTimeout(() => socket.destroy(), maxMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer: Buffer.concat(chunks), clientPort });
    });
  });
}

// A connection sent to a worker that dies gets an answer or a close, never a hang. With
// node:cluster's round-robin the supervisor accepted every connection and handed it to a
// worker; one handed to a worker that died before taking it stayed open in the supervisor.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { serve, until } from './support.ts';

type Fate = 'pending' | 'answered' | 'closed';

function request(port: number, n: number): { fate: () => Fate; socket: net.Socket } {
  let fate: Fate = 'pending';
  let data = '';
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(`GET /personen/goethe.json?n=${n} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (data += c));
  const settle = () => {
    if (fate === 'pending') fate = data.startsWith('HTTP/1.1 ') ? 'answered' : 'closed';
  };
  socket.on('end', settle);
  socket.on('close', settle);
  socket.on('error', settle);
  return { fate: () => fate, socket };
}

test('--workers 2: connections while a worker is stopped, then killed, are all answered or closed', async (t) => {
  const s = await serve({ workers: 2 });
  t.after(() => s.stop());
  const [stuck] = s.ready();
  process.kill(stuck!, 'SIGSTOP');
  const requests = Array.from({ length: 6 }, (_, i) => request(s.port, i + 1));
  t.after(() => requests.forEach((r) => r.socket.destroy()));
  try {
    // The other worker answers what it gets (bounded; a hang is what this test looks for).
    await until(() => requests.every((r) => r.fate() !== 'pending'), 20_000);
  } finally {
    process.kill(stuck!, 'SIGKILL');
  }
  await until(() => requests.every((r) => r.fate() !== 'pending'), 20_000);
  const fates = requests.map((r) => r.fate());
  assert.deepEqual(
    fates.filter((f) => f === 'pending'),
    [],
    `every connection answered or closed within 40 s: ${fates.join(', ')}`,
  );
  // The killed worker is replaced.
  assert.ok(await until(() => s.ready().length >= 3, 90_000), s.output());
  const after = request(s.port, 7);
  await until(() => after.fate() !== 'pending', 20_000);
  assert.equal(after.fate(), 'answered');
});

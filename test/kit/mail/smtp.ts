// A real SMTP server for tests (the `smtp-server` package, over TCP on 127.0.0.1): it accepts
// every message and keeps what arrived, decoded enough to assert on (the envelope's recipient,
// Message-ID, Content-Language, the subject and the text body). stop() closes the port so that
// senders meet a refused connection; start() again listens on the same port.
import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly to: string;
  readonly messageId: string;
  readonly language: string;
  readonly subject: string;
  readonly text: string;
}

export interface TestSmtp {
  readonly port: number;
  readonly received: ReceivedMail[];
  /** Resolves when `n` messages have arrived in all. */
  arrived(n: number): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / ?B?) as nodemailer writes them. */
function decodeWords(value: string): string {
  return value.replace(/\s*=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
    encoding.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, transfer: string): string {
  if (transfer === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (transfer === 'quoted-printable')
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return Buffer.from(body, 'latin1').toString('utf8'); // 7bit/8bit: the raw UTF-8 bytes
}

function parse(raw: string, to: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  return {
    to,
    messageId: header('Message-ID'),
    language: header('Content-Language'),
    subject: decodeWords(header('Subject')),
    text: decodeBody(raw.slice(split + 4), header('Content-Transfer-Encoding').toLowerCase()).replace(
      /\r\n/g,
      '\n',
    ),
  };
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address).join(',');
          received.push(parse(Buffer.concat(chunks).toString('latin1'), to));
          for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
          callback();
        });
      },
    });
  let server = create();
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP server has no port');
  const port = address.port;
  return {
    port,
    received,
    arrived: (n) =>
      received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
    async start() {
      server = create();
      server.listen(port, '127.0.0.1');
      await once(server.server, 'listening');
    },
  };
}

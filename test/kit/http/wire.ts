// One HTTP exchange as it went over the wire, for tests that hold two servers' answers to each
// other byte for byte: the status, every response header in the order sent (but Date, which
// differs by the second), and the body's bytes as Latin-1 text (compressed bodies included).
import http from 'node:http';

export interface WireAnswer {
  readonly status: number;
  /** `Name: value` as sent, in order, without Date. */
  readonly headers: readonly string[];
  readonly body: string;
}

export function askWire(
  port: number,
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
  agent: http.Agent | false = false,
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, path: target, method, headers, agent }, (response) => {
      let body = '';
      response.setEncoding('latin1');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        const sent: string[] = [];
        const raw = response.rawHeaders;
        for (let i = 0; i < raw.length; i += 2)
          if (raw[i]!.toLowerCase() !== 'date') sent.push(`${raw[i]}: ${raw[i + 1]}`);
        resolve({ status: response.statusCode ?? 0, headers: sent, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

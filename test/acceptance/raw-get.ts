// A GET with exactly the headers given (fetch would add Accept: */* and more), over node:http.
import http from 'node:http';

export type RawResponse = {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
};

export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'GET', headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** A header's value as one string ('' when absent). */
export function header(response: RawResponse, name: string): string {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** The comma-separated tokens of a header such as Vary, lower-cased. */
export function tokens(response: RawResponse, name: string): string[] {
  return header(response, name)
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
}

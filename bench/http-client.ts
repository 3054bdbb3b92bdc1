// A lean keep-alive HTTP client for the write benches. The bench's clients share the machine's
// cores with the server: fetch() spends about as much CPU per request as the server's whole
// write of a work, and so would take that much from the server being measured.
import http from 'node:http';

export interface LeanResponse {
  readonly status: number;
  readonly body: Buffer;
}

export function leanClient(origin: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(origin);
  return {
    request(
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: string,
    ): Promise<LeanResponse> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            method,
            path,
            headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

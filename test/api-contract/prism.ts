// Prism's validating proxy (@stoplight/prism-cli, a devDependency) in front of a real server:
// every request and response is checked against the OpenAPI description (ADR 0074). With
// `--errors` a response the description does not allow (an error-severity violation) is replaced
// by Prism's own 500 problem (type VIOLATIONS); warnings (an unlisted 4xx/5xx status) are only
// reported in the `sl-violations` header. A request that breaks the description (a body its
// schema refuses, a missing credential) Prism answers itself (422, 401) without forwarding it.
import { createRequire } from 'node:module';
import { freePort, startProcess, type StartedProcess } from '../support/process.ts';

const require = createRequire(import.meta.url);
export const PRISM_CLI = require.resolve('@stoplight/prism-cli/dist/index.js');

export interface Violation {
  readonly location: readonly string[];
  readonly severity: string;
  readonly code: string | number;
  readonly message: string;
}

export interface PrismAnswer {
  readonly response: Response;
  readonly status: number;
  /** What Prism found wrong with the request (the server still answered it). */
  readonly request: readonly Violation[];
  /** What Prism found wrong with the server's response: must stay empty. */
  readonly response_: readonly Violation[];
}

export interface Prism {
  readonly origin: string;
  send(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string },
  ): Promise<PrismAnswer>;
  stop(): Promise<void>;
}

export async function startPrism(description: string, upstream: string): Promise<Prism> {
  const port = await freePort();
  const started: StartedProcess = await startProcess(
    process.execPath,
    [PRISM_CLI, 'proxy', '--errors', '-h', '127.0.0.1', '-p', String(port), description, upstream],
    { NO_COLOR: '1', FORCE_COLOR: '0' },
    /Prism is listening/,
    { readyTimeoutMs: 60_000 },
  );
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    async send(method, path, init = {}) {
      const response = await fetch(origin + path, { method, redirect: 'manual', ...init });
      const header = response.headers.get('sl-violations');
      const all = header ? (JSON.parse(header) as Violation[]) : [];
      const at = (where: string) => all.filter((v) => v.location[0] === where);
      let output = at('response');
      // With --errors a violating response becomes Prism's own problem: read what it found.
      if (response.status === 500 && /problem\+json/.test(response.headers.get('content-type') ?? '')) {
        const body = (await response.clone().json()) as { type?: string; validation?: Violation[] };
        if (String(body.type).includes('VIOLATIONS')) output = [...output, ...(body.validation ?? [])];
      }
      return { response, status: response.status, request: at('request'), response_: output };
    },
    stop: () => started.stop(),
  };
}

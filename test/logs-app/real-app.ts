// The real Shelfmark server (src/main.ts startServer: catalogue, resource layer, Apache logs)
// started in this process on a fresh SQLite database and log directory, for the log tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/index.ts';
import type { ResourceDefinition } from '../../src/http/resource/types.ts';
import { prepareDatabase, startServer, type RunningServer } from '../../src/main.ts';
import type { ServerLimits } from '../../src/server/index.ts';

export interface RealApp {
  readonly running: RunningServer;
  readonly config: Config;
  readonly port: number;
  readonly base: string;
  /** Stops the server (flushing both logs) and returns the lines of each log. */
  stop(): Promise<{ access: string[]; error: string[] }>;
}

export interface RealAppOptions {
  readonly displayErrors?: boolean;
  readonly accessLogFormat?: string;
  readonly logLevel?: string;
  readonly demo?: boolean;
  /** SHELFMARK_DOCUMENT_ROOT (the path before a URL in AH00128 / AH01630 entries). */
  readonly documentRoot?: string;
  /** A fixed port (and base URL http://127.0.0.1:PORT, so log-in forms pass the origin check). */
  readonly port?: number;
  /** SHELFMARK_BASE_URL (default http://localhost:PORT, or http://127.0.0.1:PORT with `port`). */
  readonly baseUrl?: string;
  /** A request slower than this (ms) is a warning. */
  readonly slowRequestMs?: number;
  readonly extraResources?: readonly ResourceDefinition[];
  readonly liveAccessCheckMs?: number;
  /** The HTTP server's limits (short timeouts for fault tests). */
  readonly limits?: Partial<ServerLimits>;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-logs-app-'));
}

export function readLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'latin1').split('\n').filter(Boolean) : [];
}

export async function startRealApp(o: RealAppOptions = {}): Promise<RealApp> {
  const dir = tempDir();
  const loaded = loadConfig(
    {},
    {
      port: String(o.port ?? 0),
      ...(o.port !== undefined && { 'base-url': `http://127.0.0.1:${o.port}` }),
      ...(o.baseUrl !== undefined && { 'base-url': o.baseUrl }),
      'data-dir': path.join(dir, 'data'),
      'log-dir': path.join(dir, 'logs'),
      'display-errors': o.displayErrors ? '1' : '0',
      'access-log-format': o.accessLogFormat ?? 'combined',
      'log-level': o.logLevel ?? 'info',
      demo: o.demo ?? false,
      ...(o.documentRoot !== undefined && { 'document-root': o.documentRoot }),
      workers: '0',
    },
  );
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const config = loaded.config;
  fs.mkdirSync(config.logDir, { recursive: true });
  await prepareDatabase(config);
  const running = await startServer(config, {
    extraResources: o.extraResources ?? [],
    ...(o.liveAccessCheckMs !== undefined && { liveAccessCheckMs: o.liveAccessCheckMs }),
    limits: o.limits ?? {},
    ...(o.slowRequestMs !== undefined && { slowRequestMs: o.slowRequestMs }),
  });
  const port = running.address.port;
  return {
    running,
    config,
    port,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      await running.stop(1000);
      return { access: readLines(config.accessLog), error: readLines(config.errorLog) };
    },
  };
}

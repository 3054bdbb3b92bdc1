// A private nginx (Debian package nginx) in front of a server under test: its own prefix
// directory, config and port, never the system service. Used to test Shelfmark behind a real
// reverse proxy: proxy_cache (what may a shared cache store?) and X-Forwarded-* from a trusted
// address. skipUnless('nginx') in the suites that use it.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { freePort, startProcess } from './process.ts';
import { NGINX_PATH } from './requirements.ts';

export interface NginxOptions {
  /** Directives inside `http { … }`, e.g. a proxy_cache_path (`$prefix` is the private prefix). */
  readonly http?: string;
  /** Directives inside the `server { … }`, e.g. `location / { proxy_pass …; }`. */
  readonly server: string;
  /** Stops nginx when this test or suite ends. */
  readonly t?: Pick<TestContext, 'after'>;
}

export interface Nginx {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly prefix: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startNginx(o: NginxOptions): Promise<Nginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'shelfmark-nginx-'));
  // Started as root, nginx's workers run as `nobody`: they must reach and write the temp dirs.
  chmodSync(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'cache']) {
    const full = path.join(prefix, dir);
    mkdirSync(full);
    chmodSync(full, 0o777);
  }
  const port = await freePort();
  const config = `
daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log stderr notice;
events { worker_connections 64; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  ${(o.http ?? '').replaceAll('$prefix', prefix)}
  server {
    listen 127.0.0.1:${port};
    ${o.server.replaceAll('$prefix', prefix)}
  }
}
`;
  const file = path.join(prefix, 'nginx.conf');
  writeFileSync(file, config);
  // -e: the early error log, before the config is read (the default is under /var/log).
  const started = await startProcess(
    NGINX_PATH,
    ['-p', prefix, '-c', file, '-e', 'stderr'],
    {},
    /start worker process/,
    { readyTimeoutMs: 15_000 },
  );
  const nginx: Nginx = {
    origin: `http://127.0.0.1:${port}`,
    prefix,
    output: started.output,
    async stop() {
      await started.stop(3000);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
  o.t?.after(() => nginx.stop());
  return nginx;
}

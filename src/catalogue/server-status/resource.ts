// `/server-status`: the whole server's mod_status numbers for staff, in HTML, XML and JSON
// (docs/decisions/0015-server-status.md). `?auto` (httpd's machine-readable text) is auto.ts.
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { summarize, type ServerStatus } from '../../logging/index.ts';
import { requireStaff, SERVER_STATUS_PATH } from './access.ts';
import { serverStatusView, type ServerStatusModel } from './view.ts';

export interface ServerStatusOptions {
  /** Every worker's counts at this moment (under the supervisor asked over IPC). */
  readonly serverStatus: () => Promise<ServerStatus>;
}

export function serverStatusResource(opts: ServerStatusOptions): ResourceDefinition {
  return {
    name: 'server-status',
    path: SERVER_STATUS_PATH,
    methods: {
      GET: async (ctx) => {
        requireStaff(ctx.user);
        const status = await opts.serverStatus();
        const model: ServerStatusModel = { status, summary: summarize(status) };
        return {
          type: 'representation',
          representation: {
            model,
            view: serverStatusView,
            canonicalPath: SERVER_STATUS_PATH,
            schema: 'server-status',
          },
        };
      },
    },
  };
}

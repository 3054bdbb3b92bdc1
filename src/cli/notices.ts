// `shelfmark notices`: plans and sends the notices due now, once (ADR 0085), for a systemd timer
// (contrib/systemd/shelfmark-notices.timer). Any number may run beside the servers' own timers.
import type { Config } from '../config/index.ts';
import { configuredNoticeJob, openCatalogueDatabase } from '../main.ts';

export async function noticesCommand(config: Config): Promise<number> {
  const database = await openCatalogueDatabase(config);
  try {
    const configured = configuredNoticeJob(config, database.db);
    if (!configured) {
      process.stderr.write('shelfmark notices: SHELFMARK_SMTP_HOST (--smtp-host) is not set\n');
      return 2;
    }
    try {
      const run = await configured.job.run();
      process.stdout.write(
        `planned ${run.planned}, sent ${run.sent}, to retry ${run.retried}, failed ${run.failed}, obsolete ${run.obsolete}\n`,
      );
    } finally {
      configured.mailer.close();
    }
    return 0;
  } finally {
    await database.close();
  }
}

// Problems that make the configuration unusable even though every value parsed (checked by the
// `shelfmark` command before anything starts).
import type { Config } from '../config/index.ts';
import { compileLogFormat } from '../logging/index.ts';

export function checkConfig(config: Config): string[] {
  const problems: string[] = [];
  try {
    compileLogFormat(config.accessLogFormat);
  } catch (err) {
    problems.push(`SHELFMARK_ACCESS_LOG_FORMAT: ${(err as Error).message}`);
  }
  return problems;
}

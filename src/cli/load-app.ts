// The application is loaded with import() when a process starts serving, not by the `shelfmark`
// command's own imports: a syntax error or a missing module in it is then an error the process
// can log and show (boot.ts, load-failure.ts) instead of Node's bare message on stderr. What the
// supervisor itself runs (config, logging, cli) is loaded statically and must be sound.
import type * as Main from '../main.ts';
import type { DEMO_ACCOUNTS } from '../catalogue/demo/index.ts';

export type Application = typeof Main & { readonly demoAccounts: typeof DEMO_ACCOUNTS };

export async function loadApplication(): Promise<Application> {
  const [main, demo] = await Promise.all([import('../main.ts'), import('../catalogue/demo/index.ts')]);
  return { ...main, demoAccounts: demo.DEMO_ACCOUNTS };
}

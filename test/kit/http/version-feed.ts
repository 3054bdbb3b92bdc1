// A representation cache's change feed made from one version value (ADR 0048's counter), for
// tests: any new value changed everything. Sync, async and failing reads stay as they are.
import type { ChangeBatch } from '../../../src/http/cache/index.ts';

type Version = string | number | bigint;

export function versionFeed(
  read: () => Promise<Version> | Version,
): () => Promise<ChangeBatch> | ChangeBatch {
  let last: string | undefined;
  const batchOf = (value: Version): ChangeBatch => {
    const now = String(value);
    if (now === last) return [];
    last = now;
    return 'everything';
  };
  return () => {
    const value = read();
    return value instanceof Promise ? value.then(batchOf) : batchOf(value);
  };
}

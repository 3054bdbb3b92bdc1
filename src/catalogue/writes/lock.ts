// Runs the check-then-write of the catalogue one at a time within this process. Correctness
// does not depend on it any more: the stores' compare-and-set refuses a write whose row changed
// after its preconditions were checked, in any process (ADR 0021). It is kept because it keeps
// this process's own writes from racing each other — for generated slugs (which would surface
// as 409/500 from the UNIQUE index) and into compare-and-set losses that cost a second round.
const tails = new Map<string, Promise<unknown>>();

export async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}

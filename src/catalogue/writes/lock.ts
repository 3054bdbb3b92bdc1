// Runs the check-then-write of one resource one at a time within this process, so two PUTs
// with the same If-Match cannot both pass the precondition before either has written.
// (Across processes the window remains; see docs/decisions/0021-writing-persons-and-works.md.)
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

// One round trip for many callers of a read that must be fresh (ADR 0068). The representation
// cache reads the database's change counter before every cacheable GET (ADR 0048), and must
// see every write committed before the request arrived. Callers may therefore share a read
// only if it was *sent after* each of them asked: a read already under way may have taken its
// snapshot before a write another client was just told succeeded.
//
// So the callers of one turn of the event loop share one read, started once that turn's I/O
// callbacks are done (setImmediate): after every one of them asked. Requests that arrived
// together (one poll of the sockets) cost one statement; a lone request waits no round trip
// longer than before; reads of successive turns may overlap, so a slow answer holds up only
// its own batch.
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  /** This turn's read, not yet started. */
  let batch: PromiseWithResolvers<T> | undefined;

  const start = (waiting: PromiseWithResolvers<T>) => {
    batch = undefined;
    try {
      read().then(waiting.resolve, waiting.reject);
    } catch (error) {
      waiting.reject(error as Error);
    }
  };

  return () => {
    if (batch === undefined) {
      batch = Promise.withResolvers<T>();
      setImmediate(start, batch);
    }
    return batch.promise;
  };
}

/**
 * sharedRead for one connection (ADR 0105): at most one read in flight. Callers that ask while
 * one is under way share the next, sent when it is done — still after each of them asked — so
 * a slow answer gathers every caller meanwhile into one read instead of queueing one read per
 * turn behind it.
 */
export function serialSharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  /** The callers of the next read, not yet sent. */
  let next: PromiseWithResolvers<T> | undefined;
  let running = false;

  const start = () => {
    if (running || next === undefined) return;
    const waiting = next;
    next = undefined;
    running = true;
    const done = () => {
      running = false;
      start();
    };
    try {
      read().then(waiting.resolve, waiting.reject).finally(done);
    } catch (error) {
      waiting.reject(error as Error);
      done();
    }
  };

  return () => {
    if (next === undefined) {
      next = Promise.withResolvers<T>();
      // This turn's other callers first, as sharedRead does.
      if (!running) setImmediate(start);
    }
    return next.promise;
  };
}

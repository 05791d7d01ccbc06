/**
 * One compare-and-set loop for every read-modify-write on a document that other writers may
 * change at the same moment: the session lock, the job claim, a file's version head, the
 * project's task board and notes. FerretDB v1 has no multi-document transactions, so each
 * such write is conditional on what was read; losing the race means reading again and
 * retrying. Running out of attempts is an error (`CompareAndSetExhausted`), never a silent
 * "ok" with nothing saved.
 */

/** A compare-and-set that lost the race `attempts` times in a row. */
export class CompareAndSetExhausted extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
  ) {
    super(`${what}: gave up after ${attempts} concurrent changes; nothing was written`);
    this.name = new.target.name;
  }
}

/** What one attempt reports: written (with a value), or lost the race (try again). */
export type CasAttempt<T> = { written: true; value: T } | { written: false };

export const casWritten = <T>(value: T): CasAttempt<T> => ({ written: true, value });
export const casLost: CasAttempt<never> = { written: false };

export interface CompareAndSetOptions {
  /** Attempts before giving up (default 5). */
  attempts?: number;
  /** Upper bound of the random pause between attempts, in ms (default 20): spreads out writers that collided. */
  jitterMs?: number;
}

/**
 * Runs `attempt` (read, compute, conditional write) until it reports a write.
 * @param what names the write in the error message ("task board of project …").
 * @throws CompareAndSetExhausted after `attempts` lost races.
 */
export async function compareAndSet<T>(
  what: string,
  attempt: (n: number) => Promise<CasAttempt<T>>,
  opts: CompareAndSetOptions = {},
): Promise<T> {
  const attempts = opts.attempts ?? 5;
  const jitterMs = opts.jitterMs ?? 20;
  for (let n = 0; n < attempts; n++) {
    const r = await attempt(n);
    if (r.written) return r.value;
    if (n + 1 < attempts && jitterMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * jitterMs));
  }
  throw new CompareAndSetExhausted(what, attempts);
}

/**
 * A time budget several reads share: each read is raced against one deadline, so together they
 * cost at most the budget and the caller goes on with what arrived by then. A read still running
 * at the deadline is left to finish on its own; its failure then goes unheard.
 */
import { quiet } from '../core/quiet';

/** What `take` gives for a read that was still running when the budget ran out. */
export const LATE: unique symbol = Symbol('late');
export type Late = typeof LATE;

export interface ReadBudget {
  /** The read's value, or LATE once the budget has run out; a read that fails in time fails here. */
  take<T>(read: Promise<T>): Promise<T | Late>;
  /** Whether the budget has run out, for work between reads that checks it as it goes. */
  spent(): boolean;
  /** Lets go of the budget's timer: call it when the reads are taken. */
  close(): void;
}

/** A budget of `ms` milliseconds from now. */
export function readBudget(ms: number): ReadBudget {
  const deadline = performance.now() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const out = new Promise<Late>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, ms));
  });
  return {
    take: <T>(read: Promise<T>) => Promise.race([quiet(read), out]),
    spent: () => performance.now() >= deadline,
    close: () => clearTimeout(timer),
  };
}

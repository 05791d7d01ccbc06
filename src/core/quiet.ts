/** A promise started ahead of its use: awaited later, so its failure must not count as unhandled meanwhile. */
export function quiet<T>(started: Promise<T>): Promise<T> {
  started.catch(() => undefined);
  return started;
}

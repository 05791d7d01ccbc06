/**
 * Spies on a mongoose model's calls, for tests that check what goes to MongoDB in which order
 * (in harness tests the worker runs in the test process, on the same models). Restore them
 * with `mockRestore()` in a `finally`.
 */

type Method<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
type Query = { exec(): Promise<unknown> };

/**
 * Each call is shown to `answerFor` as it is made; the answer it returns (if any) stands in for
 * running the query, and may wait, note what happened, fail, or run the query itself with
 * `run`. Queries it returns nothing for run as they are.
 */
export function interceptQueries<T extends object>(
  model: T,
  method: Method<T>,
  answerFor: (...args: never[]) => ((run: () => Promise<unknown>) => Promise<unknown>) | undefined,
): jest.SpyInstance {
  const original = (model[method] as (...args: unknown[]) => Query).bind(model);
  return jest.spyOn(model, method as never).mockImplementation(((...args: unknown[]) => {
    const query = original(...args);
    const answer = answerFor(...(args as never[]));
    if (!answer) return query;
    const run = query.exec.bind(query);
    query.exec = () => answer(run);
    return query;
  }) as never);
}

/**
 * Calls `note` with each call's arguments before the call goes through. A `note` that returns
 * a promise (it may wait) holds the call back until it settles: only for methods that return
 * a promise themselves (`create`), not a query.
 */
export function beforeCalls<T extends object>(
  model: T,
  method: Method<T>,
  note: (...args: never[]) => void | Promise<void>,
): jest.SpyInstance {
  const original = (model[method] as (...args: unknown[]) => unknown).bind(model);
  return jest.spyOn(model, method as never).mockImplementation(((...args: unknown[]) => {
    const noted = note(...(args as never[]));
    return noted instanceof Promise ? noted.then(() => original(...args)) : original(...args);
  }) as never);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

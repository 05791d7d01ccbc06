/**
 * How much of each request's prompt repeats the start of a recent request — what a
 * provider's prefix cache can serve — in three places:
 * - within an agent run: a step against the run's previous step;
 * - across agents in a turn: a run's first step against the turn's earlier requests;
 * - across consecutive chapters: a chapter turn's requests against the previous chapter's,
 *   agent by agent (the writer of chapter n against the writer of chapter n-1).
 * Shares are of prompt characters (tools, then messages, as the offline model's prefix cache
 * reads a prompt), summed over the requests of each kind.
 */
import { detectAgent } from '../src/offline-model/conversation';
import { promptText, sharedPrefixLength } from '../src/offline-model/prefix-cache';
import type { RecordedRequest } from '../src/offline-model';

export interface TurnSpan {
  id: string;
  start: number;
  end: number;
}

interface Kind {
  shared: number;
  total: number;
  requests: number;
}

export type CacheShares = Record<'withinRun' | 'acrossAgents' | 'acrossChapters', Kind>;

const best = (text: string, earlier: string[]): number =>
  earlier.reduce((m, e) => Math.max(m, sharedPrefixLength(text, e)), 0);

/** Shares of the requests made during `turns` (in order: chapter after chapter). */
export function cacheShares(requests: RecordedRequest[], turns: TurnSpan[]): CacheShares {
  const kinds: CacheShares = {
    withinRun: { shared: 0, total: 0, requests: 0 },
    acrossAgents: { shared: 0, total: 0, requests: 0 },
    acrossChapters: { shared: 0, total: 0, requests: 0 },
  };
  const add = (k: Kind, shared: number, total: number) => {
    k.shared += shared;
    k.total += total;
    k.requests += 1;
  };
  let previous: { agent: string | null; text: string }[] = [];
  for (const turn of turns) {
    const inTurn = requests
      .filter((r) => r.at >= turn.start && r.at <= turn.end)
      .map((r) => ({ agent: detectAgent(r.body), text: promptText(r.body) }));
    inTurn.forEach((r, i) => {
      const before = inTurn[i - 1];
      if (before && before.agent === r.agent)
        add(kinds.withinRun, sharedPrefixLength(r.text, before.text), r.text.length);
      else if (before)
        add(
          kinds.acrossAgents,
          best(
            r.text,
            inTurn.slice(0, i).map((x) => x.text),
          ),
          r.text.length,
        );
      const sameAgent = previous.filter((p) => p.agent === r.agent).map((p) => p.text);
      if (sameAgent.length) {
        const shared = best(r.text, sameAgent);
        add(kinds.acrossChapters, shared, r.text.length);
        // Where a chapter's prompt stops repeating the previous chapter's (what to move later).
        if (process.env.CACHE_SHARE_DEBUG)
          console.log(
            `[${r.agent}] diverges at ${shared}/${r.text.length}: …${JSON.stringify(r.text.slice(Math.max(0, shared - 80), shared + 80))}`,
          );
      }
    });
    // CACHE_SHARE_DEBUG=messages (the writer's) or messages:<agent>: the first request's messages, each cut short.
    if (process.env.CACHE_SHARE_DEBUG?.startsWith('messages')) {
      const agent = process.env.CACHE_SHARE_DEBUG.split(':')[1] ?? 'writer';
      const first = requests.find((r) => r.at >= turn.start && r.at <= turn.end && detectAgent(r.body) === agent);
      for (const m of first?.body.messages ?? [])
        console.log(
          `  ${m.role} ${String(m.content ?? '').length}: ${JSON.stringify(String(m.content ?? '').slice(0, 160))}`,
        );
    }
    previous = inTurn;
  }
  return kinds;
}

export function formatShare(k: Kind): string {
  return k.total ? `${((100 * k.shared) / k.total).toFixed(1)} % (${k.requests} requests)` : '— (no such requests)';
}

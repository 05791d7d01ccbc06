/**
 * The proxies a turn schedules its activities through: the LLM step, the router, the
 * remote tool and bookkeeping activities, and (in turns started since `h9-local-activities`)
 * the short bookkeeping activities as local activities. Their options, and why each is what
 * it is, are in activity-options.ts.
 */
import { type ActivityInterfaceFor, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TurnSettings } from '../core/turn/turn-types';
import { bookkeepingLocalOptions, llmStepOptions, routerLocalOptions, storeOptions } from './activity-options';

/** The short, idempotent activities a turn may run as local activities. */
export type ShortActivity =
  'announceTurn' | 'prepareTurn' | 'answerNoise' | 'executeTool' | 'releaseHeldText' | 'finalizeTurn';

export function turnActivities(settings: TurnSettings, opts: { local?: boolean } = {}) {
  const llm = proxyActivities<Pick<Activities, 'llmStep'>>(llmStepOptions(settings));
  // The router with the attempts left after `made` (the preparation's own failed call counts).
  const router = (made = 0) => proxyLocalActivities<Pick<Activities, 'routeTurn'>>(routerLocalOptions(made));
  const store = proxyActivities<Omit<Activities, 'llmStep' | 'routeTurn'>>(storeOptions(settings));
  const local = proxyLocalActivities<Pick<Activities, ShortActivity>>(bookkeepingLocalOptions());
  // Only `summary` is passed at call sites, which both kinds of proxy accept.
  const short = (opts.local ? local : store) as Pick<ActivityInterfaceFor<Activities>, ShortActivity>;
  // proxyActivities returns a Proxy: its functions must be reached by name, not spread.
  return { llm, router, store, short };
}

export type TurnActivities = ReturnType<typeof turnActivities>;

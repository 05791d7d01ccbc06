/**
 * The turn workflow, top to bottom: announce and prepare → answer without a model
 * or route → run agents, deciding after each run what comes next → finalize.
 * Deterministic: every side effect is an activity; the manuscript never passes through
 * history (activities exchange ids and compact facts; text stays in MongoDB and Redis).
 *
 * Where the rest of the story is: turn-handlers.ts (signals, query, approval update),
 * turn-routing.ts (the first choice), agent-run.ts (one agent's model steps and tool calls),
 * decide.ts (what follows a run), held-text.ts (the writer's held chat), turn-end.ts (finalize);
 * turn-state.ts holds the turn's state, which each of them changes only by applying a change to it.
 */
import { type CancellationScope, log, upsertSearchAttributes } from '@temporalio/workflow';
import { quiet } from '../core/quiet';
import { SA } from '../core/turn/messages';
import type { TurnInput, TurnOutcome } from '../core/turn/turn-types';
import type { WorkAgent } from '../core/plans';
import { turnActivities } from './activities-proxy';
import { runAgent } from './agent-run';
import { decideAfterRun } from './decide';
import { settleHeldText } from './held-text';
import { installTurnHandlers } from './turn-handlers';
import { readsToPrefetch, routeOrAnswer } from './turn-routing';
import { endOf, endOnError, finalizeTurn } from './turn-end';
import { TurnRunState } from './turn-state';
import { type NextRun, nextRunOf } from './turn-changes';

export async function turnWorkflow(input: TurnInput): Promise<TurnOutcome> {
  const st = new TurnRunState(input);
  const acts = turnActivities(input.settings, { local: true });
  let modelCall: CancellationScope | null = null;
  installTurnHandlers(st, () => modelCall?.cancel());

  try {
    // The first event goes out before any model call, so clients never see silence.
    // Awaited after prepareTurn; a turn cancelled meanwhile leaves through the catch below without
    // awaiting it, and its rejection must not count as unhandled (that failed the workflow task
    // over and over, so the turn never finalized).
    const announced = quiet(
      acts.short.announceTurn({
        turnId: input.turnId,
        sessionId: input.sessionId,
        slot: st.nextSlot(),
        jobId: input.jobId ?? null,
      }),
    );
    // The announcement and the turn's reads run side by side (turn_started has the first slot).
    const prepared = await acts.short.prepareTurn({
      turnId: input.turnId,
      sessionId: input.sessionId,
      projectId: input.projectId,
      ...(input.openingSeq ? { openingSeq: input.openingSeq } : {}),
      prefetch: readsToPrefetch(input),
    });
    await announced;
    st.apply({ type: 'prepared', language: prepared.language });
    const answered = await routeOrAnswer(st, acts, prepared);
    if (answered) return await finalizeTurn(st, acts, answered);
    const routing = st.routing!;

    let next: NextRun = {
      agent: routing.current_agent,
      kind: 'initial',
      note: '',
      remaining: [...routing.workflow_agents],
    };
    let from: WorkAgent | null = null;
    for (;;) {
      st.apply({ type: 'runStarted', next, from });
      // Temporal UI lists the plan and the agent at work. Each upsert is a visibility write inside
      // the workflow task (2–5 ms of it on the dev server), so the plan goes with the first agent
      // and a run that goes on with the same agent (a continuation, a summary) changes nothing.
      if (next.agent !== from)
        upsertSearchAttributes([
          ...(from === null ? [{ key: SA.WorkflowPlan, value: routing.workflow_plan }] : []),
          { key: SA.CurrentAgent, value: next.agent },
        ]);
      const packet = st.packetFor(next, from, prepared);
      const facts = await runAgent(
        st,
        { agent: next.agent, kind: next.kind, packet },
        { acts, setActiveScope: (s) => (modelCall = s) },
      );
      const { decision, blockedHandoff, droppedHandoff } = decideAfterRun(
        facts,
        st.decideState(next.kind, facts, prepared),
      );
      st.apply({ type: 'decided', kind: next.kind, decision, blockedHandoff });
      if (droppedHandoff) log.info('explicit handoff dropped on a clarify-first turn', { turnId: input.turnId });
      await settleHeldText(st, acts, decision);
      if (decision.action !== 'run') return await finalizeTurn(st, acts, endOf(decision));
      from = next.agent;
      next = nextRunOf(decision);
    }
  } catch (err) {
    const end = endOnError(st, err);
    if (!end) throw err;
    return finalizeTurn(st, acts, end);
  }
}

/**
 * The writer's held chat text, on the workflow's side. While a review
 * may follow, the LLM step streams a writer's closing text to Redis but not to the author
 * (`holdChat`, chosen in agent-run.ts); the run is listed in `heldRuns`. One rule decides
 * what becomes of it once the next move is known:
 * - the writer goes on (continuation, empty-file correction): it stays held;
 * - the reviewer takes over: it is dropped (the reviewer writes the one summary);
 * - the turn ends (completes, stops, fails or is interrupted): finalize publishes it;
 * - another agent runs: one `releaseHeldText` activity publishes it before that agent speaks.
 */
import type { TurnActivities } from './activities-proxy';
import type { Decision } from './decide';
import type { TurnRunState } from './turn-state';

export async function settleHeldText(st: TurnRunState, acts: TurnActivities, next: Decision): Promise<void> {
  if (st.heldRuns.length === 0) return;
  if (
    next.action === 'run' &&
    next.agent === 'writer' &&
    (next.kind === 'continuation' || next.kind === 'empty_file_repair')
  )
    return;
  const drop = next.action === 'run' && next.agent === 'quality_reviewer';
  // Released text is text the author has seen; dropped text never was.
  if (!drop) st.shownText ||= st.heldText;
  st.heldText = false;
  if (drop) {
    for (const rec of st.runs) if (st.heldRuns.includes(rec.run)) rec.textDropped = true;
    st.heldRuns = [];
  } else if (next.action === 'run') {
    await acts.short.releaseHeldText({
      turnId: st.input.turnId,
      runs: [...st.heldRuns],
      slot: st.nextSlot(),
      agent: 'writer',
    });
    st.heldRuns = [];
  } else {
    releaseAtTurnEnd(st);
  }
}

/** The turn ends next: finalize publishes the held text, saving an activity round trip. */
export function releaseAtTurnEnd(st: TurnRunState): void {
  st.releaseAtFinalize = [...new Set([...st.releaseAtFinalize, ...st.heldRuns])];
  st.heldRuns = [];
}

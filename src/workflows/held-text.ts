/**
 * The writer's held chat text, on the workflow's side. While a review
 * may follow, the LLM step streams a writer's closing text to Redis but not to the author
 * (`holdChat`: `holdsWriterChat` in chat-hold.ts, asked by agent-run.ts at each step); the run is listed
 * in `heldRuns`. One rule decides what becomes of it once the next move is known:
 * - the writer goes on (continuation, empty-file correction): it stays held;
 * - the reviewer takes over: it is dropped (the reviewer writes the one summary);
 * - the turn ends (completes, stops, fails or is interrupted): finalize publishes it;
 * - another agent runs: one `releaseHeldText` activity publishes it before that agent speaks.
 */
import type { TurnActivities } from './activities-proxy';
import type { Decision } from './decide';
import type { TurnRunState } from './turn-state';

/** What becomes of held text when `next` follows: the rule above, as a value. */
export type HeldTextMove = 'keep' | 'drop' | 'release' | 'atTurnEnd';

export function heldTextMove(next: Decision): HeldTextMove {
  if (
    next.action === 'run' &&
    next.agent === 'writer' &&
    (next.kind === 'continuation' || next.kind === 'empty_file_repair')
  )
    return 'keep';
  if (next.action === 'run' && next.agent === 'quality_reviewer') return 'drop';
  return next.action === 'run' ? 'release' : 'atTurnEnd';
}

export async function settleHeldText(st: TurnRunState, acts: TurnActivities, next: Decision): Promise<void> {
  if (st.heldRuns.length === 0) return;
  const move = heldTextMove(next);
  if (move === 'keep') return;
  st.apply({ type: 'heldText', move });
  if (move !== 'release') return;
  await acts.short.releaseHeldText({
    turnId: st.input.turnId,
    runs: [...st.heldRuns],
    slot: st.nextSlot(),
    agent: 'writer',
  });
  st.apply({ type: 'heldText', move: 'released' });
}

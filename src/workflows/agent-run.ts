/**
 * One agent run: LLM step activity → its tool calls → again, until the model answers without
 * tools, calls a control tool, trips the failure breaker or hits the step cap. The step saves
 * a streamed `<file>` body and runs its tool calls itself; the workflow runs only what it
 * leaves (the calls after a failed one, a parallel batch, a call the author must approve).
 * The LLM step runs in a cancellable scope so an `interrupt` signal stops the model.
 */
import { addUsage } from '../core/usage';
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import { draft } from '../core/events';
import { isBodyFileType } from '../core/book/file-types';
import type { LlmStepResult, RunKind, ToolOutcome } from '../core/turn/turn-types';
import type { TurnActivities } from './activities-proxy';
import { freshRunFacts, type RunFacts } from './decide';
import type { TurnRunState } from './turn-state';
import type { WorkAgent } from '../core/plans';
import { askAuthor } from './approvals';
import { recordBatch, runParallelBatch } from './parallel';

export class Interrupted extends Error {
  constructor() {
    super('interrupted by the author');
    this.name = 'Interrupted';
  }
}

export interface RunRequest {
  agent: WorkAgent;
  kind: RunKind;
  packet: string | null;
}

export interface RunHooks {
  acts: TurnActivities;
  /** Scope of the LLM step in flight, so the interrupt handler can cancel it. */
  setActiveScope(scope: CancellationScope | null): void;
}

export async function runAgent(st: TurnRunState, req: RunRequest, hooks: RunHooks): Promise<RunFacts> {
  const { acts } = hooks;
  const facts = freshRunFacts(req.agent, req.kind);
  const routing = st.routing!;
  const flags = { readOnly: routing.read_only, clarifyFirst: routing.clarify_first };
  const run = st.run;
  const units = new Set<number>();

  for (let i = 0; i < st.input.settings.maxAgentSteps; i++) {
    if (st.interruptRequested) throw new Interrupted();
    const step = ++st.step;
    const steering = st.steering.splice(0);
    const prelude = st.prelude.splice(0);
    for (const s of steering)
      prelude.push(draft('steering_received', { message: s }, { turnId: st.input.turnId, agent: req.agent, step }));
    // Once the writer has body text in this turn, its chat may be replaced by a reviewer's summary
    // (only while the review cap is not reached — at the cap no review can follow).
    const reviewPossible = st.reviewRounds < (st.input.settings.maxReviewRounds ?? Infinity);
    const holdChat =
      req.agent === 'writer' &&
      (st.heldRuns.includes(run) ||
        (reviewPossible && (st.bodyWords > 0 || (st.pendingFileId !== null && st.pendingFileIsBody))));
    if (holdChat && !st.heldRuns.includes(run)) st.heldRuns.push(run);

    let res: LlmStepResult;
    try {
      res = await CancellationScope.cancellable(async () => {
        hooks.setActiveScope(CancellationScope.current());
        return acts.llm.llmStep.executeWithOptions(
          // Temporal UI shows when the step will also save the pending file's streamed body.
          { summary: `${req.agent} · step ${step} · model${st.pendingFileId ? ' · save <file>' : ''}` },
          [
            {
              turnId: st.input.turnId,
              run,
              step,
              agent: req.agent,
              slot: st.nextSlot(),
              runKind: req.kind,
              packet: i === 0 ? req.packet : null,
              ...(st.language ? { language: st.language } : {}),
              scope: {
                scope: routing.scope,
                writeContent: routing.write_content,
                readOnly: flags.readOnly,
                clarifyFirst: flags.clarifyFirst,
                remainingPlan: [...st.remaining],
              },
              pendingFileId: st.pendingFileId,
              holdChat,
              // Held text counts as shown for the held steps after it: it is released or dropped together.
              textBefore: st.shownText || (holdChat && st.heldText),
              afterToolCalls: i > 0,
              steering,
              prelude,
              runTools: { flags },
            },
          ],
        );
      });
    } catch (err) {
      if (isCancellation(err) && st.interruptRequested) throw new Interrupted();
      throw err;
    } finally {
      hooks.setActiveScope(null);
    }
    if (res.textChars > 0) {
      if (holdChat) st.heldText = true;
      else st.shownText = true;
    }
    st.usage = addUsage(st.usage, res.usage);
    res.planUnits.forEach((u) => units.add(u));

    // The step saved the body it captured (capture.ts); its outcome comes back with the answer.
    const saved = res.saved;
    if (res.capture && saved && (res.capture.closed || res.capture.chars > 0)) {
      recordWrite(st, facts, req.agent, saved);
      // Body text saved into the empty file: it is written (an empty <file></file> block is not).
      // A file the author deleted or wrote into meanwhile gets no correction round: the body is kept beside it.
      const keptAside = !saved.ok && (saved.errorType === 'file_deleted' || saved.errorType === 'stale_content');
      if (
        st.emptyFile?.fileId === res.capture.fileId &&
        (keptAside || (saved.ok && (res.capture.words ?? res.capture.chars) > 0))
      )
        st.emptyFile = null;
      if (res.capture.closed) {
        st.pendingFileId = null;
        st.pendingFileIsBody = false;
      }
    }

    const ranInStep = res.toolOutcomes ?? [];
    // A call the step did not run itself (older turns, parallel_execute, after a failure).
    const runTool = async (call: (typeof res.toolCalls)[number]) => {
      if (st.interruptRequested) throw new Interrupted();
      const toolInput = {
        turnId: st.input.turnId,
        run,
        step,
        agent: req.agent,
        toolCallId: call.id,
        slot: st.nextSlot(),
        flags,
      };
      const label = `${req.agent} · step ${step} · ${call.summary}`;
      return call.name === 'parallel_execute'
        ? runParallelBatch(acts, toolInput, label)
        : acts.short.executeTool.executeWithOptions({ summary: label }, [toolInput]);
    };
    for (const [index, call] of res.toolCalls.entries()) {
      let outcome = index < ranInStep.length ? ranInStep[index]! : await runTool(call);
      // A delete or whole rewrite of the author's own file that their message did not ask for: ask them.
      if (!outcome.ok && outcome.errorType === 'approval_required' && outcome.approval)
        outcome = await askAuthor(
          st,
          acts,
          { turnId: st.input.turnId, run, step, agent: req.agent, toolCallId: call.id, flags },
          outcome.approval,
          `${req.agent} · step ${step} · ${call.summary}`,
        );
      recordWrite(st, facts, req.agent, outcome);
      if (outcome.ok && outcome.handoff) facts.handoff = outcome.handoff;
      if (outcome.ok && outcome.clarification) facts.clarification = outcome.clarification;
      const tripped = recordBatch(st.breaker, outcome);
      if (tripped) {
        facts.circuitOpen = tripped;
        facts.planUnits = [...units];
        return facts;
      }
    }
    if (res.toolCalls.length === 0) {
      facts.cutShort = cutShort(res);
      // Only when the turn has nothing else to show: a continuation or review round that adds nothing is fine.
      facts.emptyAnswer =
        i === 0 && res.textChars === 0 && !res.capture && !st.shownText && !st.heldText && st.delivered.length === 0;
      facts.endsWithQuestion = res.endsWithQuestion;
      facts.question = res.question;
      facts.endsOnFileBlock = res.endsOnFileBlock;
      break;
    }
    if (facts.handoff || facts.clarification) break;
  }
  facts.planUnits = [...units].sort((a, b) => a - b);
  facts.emptyFile = st.emptyFile ? { fileId: st.emptyFile.fileId, title: st.emptyFile.title } : null;
  return facts;
}

/**
 * An answer the provider ended before the model did: at its output limit (`length`) or by its
 * content filter. A `<file>` body it cut is saved as far as it went; the turn says it is unfinished.
 */
function cutShort(res: LlmStepResult): RunFacts['cutShort'] {
  if (res.finishReason !== 'length' && res.finishReason !== 'content_filter') return null;
  const c = res.capture;
  const unfinished = c && !c.closed && res.saved?.ok ? { title: res.saved.title ?? '', words: c.words ?? 0 } : null;
  return { reason: res.finishReason, unfinished };
}

/** Folds one tool/file-save outcome into the turn's bookkeeping. */
function recordWrite(st: TurnRunState, facts: RunFacts, agent: WorkAgent, o: ToolOutcome): void {
  if (!o.ok) return;
  st.noteFile(o);
  if (o.name === 'create_file' && (o.op === 'created' || o.op === 'opened')) {
    facts.createdFile = true;
    if (o.pendingBody) {
      st.pendingFileId = o.fileId ?? null;
      st.pendingFileIsBody = isBodyFileType(o.fileType);
      if (o.fileId) st.emptyFile = { fileId: o.fileId, title: o.title ?? '', isBody: st.pendingFileIsBody };
    }
  }
  if (o.name === 'edit_file' && o.op === 'edited' && st.emptyFile?.fileId === o.fileId) st.emptyFile = null;
  if (o.fileType === 'outline' && (o.op === 'edited' || (o.op === 'created' && !o.pendingBody))) st.wroteOutline = true;
  if (agent === 'writer' && o.bodyWords) st.bodyWords += o.bodyWords;
}

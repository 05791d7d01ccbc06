/**
 * One agent run: LLM step activity → its tool calls → again, until the model answers without
 * tools, calls a control tool, trips the failure breaker or hits the step cap. The step saves
 * a streamed `<file>` body and runs its tool calls itself; the workflow runs only what it
 * leaves (the calls after a failed one, a parallel batch, a call the author must approve).
 * The LLM step runs in a cancellable scope so an `interrupt` signal stops the model.
 *
 * Each part of a step is a function below: start it, call the model, take in its answer, run
 * the tool calls it left. Each applies what happened to the turn's state (`st.apply`) where it
 * happens; the run's own facts, for the decision after it, are what `runAgent` returns.
 */
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import { type AnyEventDraft, draft } from '../core/events';
import type { LlmStepInput, LlmStepResult, RunKind, ToolCallRef, ToolOutcome } from '../core/turn/turn-types';
import type { TurnActivities } from './activities-proxy';
import { freshRunFacts, type RunFacts } from './decide';
import { holdsWriterChat } from './chat-hold';
import type { TurnRunState } from './turn-state';
import type { BreakerTrip } from './failure-breaker';
import type { WorkAgent } from '../core/plans';
import { askAuthor } from './approvals';
import { runParallelBatch } from './parallel';

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

/** One run in flight: what it was asked, what it works with, and the facts it gathers. */
interface AgentRun {
  st: TurnRunState;
  req: RunRequest;
  hooks: RunHooks;
  facts: RunFacts;
  /** The routing's flags, which every tool call of the run gets. */
  flags: { readOnly: boolean; clarifyFirst: boolean };
  /** The run's number. */
  run: number;
  /** "chapter N" units the run's answers pasted into chat. */
  units: Set<number>;
}

/** A model step as it starts: its number, what it carries to the model, and whether the writer's chat is held. */
interface StepStart {
  step: number;
  steering: string[];
  prelude: AnyEventDraft[];
  holdChat: boolean;
}

export async function runAgent(st: TurnRunState, req: RunRequest, hooks: RunHooks): Promise<RunFacts> {
  const routing = st.routing!;
  const r: AgentRun = {
    st,
    req,
    hooks,
    facts: freshRunFacts(req.agent, req.kind),
    flags: { readOnly: routing.read_only, clarifyFirst: routing.clarify_first },
    run: st.run,
    units: new Set<number>(),
  };
  for (let i = 0; i < st.input.settings.maxAgentSteps; i++) {
    if (st.interruptRequested) throw new Interrupted();
    const start = startStep(r);
    const res = await modelStep(r, start, i);
    takeAnswer(r, start.holdChat, res);
    const tripped = await runToolCalls(r, start.step, res);
    if (tripped) {
      r.facts.circuitOpen = tripped;
      r.facts.planUnits = [...r.units];
      return r.facts;
    }
    if (res.toolCalls.length === 0) {
      noteLastAnswer(r, res, i);
      break;
    }
    if (r.facts.handoff || r.facts.clarification) break;
  }
  r.facts.planUnits = [...r.units].sort((a, b) => a - b);
  r.facts.emptyFile = st.emptyFile ? { fileId: st.emptyFile.fileId, title: st.emptyFile.title } : null;
  return r.facts;
}

/** Starts a model step: it takes the author's steering (announced in its prelude) and the queued events. */
function startStep(r: AgentRun): StepStart {
  const { st, req } = r;
  const steering = [...st.steering];
  const prelude = [...st.prelude];
  // The writer's chat waits while a reviewer may replace it with the one summary.
  const holdChat = holdsWriterChat(st.chatHoldFacts(req.agent, r.run));
  st.apply({ type: 'stepStarted', holdChat });
  const step = st.step;
  for (const s of steering)
    prelude.push(draft('steering_received', { message: s }, { turnId: st.input.turnId, agent: req.agent, step }));
  return { step, steering, prelude, holdChat };
}

/** The LLM step, in a scope the interrupt handler can cancel. */
async function modelStep(r: AgentRun, start: StepStart, i: number): Promise<LlmStepResult> {
  const { st, req, hooks } = r;
  try {
    return await CancellationScope.cancellable(async () => {
      hooks.setActiveScope(CancellationScope.current());
      return hooks.acts.llm.llmStep.executeWithOptions(
        // Temporal UI shows when the step will also save the pending file's streamed body.
        { summary: `${req.agent} · step ${start.step} · model${st.pendingFileId ? ' · save <file>' : ''}` },
        [llmStepInput(r, start, i)],
      );
    });
  } catch (err) {
    if (isCancellation(err) && st.interruptRequested) throw new Interrupted();
    throw err;
  } finally {
    hooks.setActiveScope(null);
  }
}

/** What the `i`-th model step of the run is given. */
function llmStepInput(r: AgentRun, start: StepStart, i: number): LlmStepInput {
  const { st, req, flags } = r;
  const routing = st.routing!;
  return {
    turnId: st.input.turnId,
    projectId: st.input.projectId,
    run: r.run,
    step: start.step,
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
    holdChat: start.holdChat,
    // Held text counts as shown for the held steps after it: it is released or dropped together.
    textBefore: st.shownText || (start.holdChat && st.heldText),
    afterToolCalls: i > 0,
    steering: start.steering,
    prelude: start.prelude,
    runTools: { flags },
  };
}

/** Takes in the step's answer: its chat text and usage, and the `<file>` body the step saved, if any. */
function takeAnswer(r: AgentRun, holdChat: boolean, res: LlmStepResult): void {
  const { st, req } = r;
  const text = res.textChars > 0 ? (holdChat ? 'held' : 'shown') : null;
  st.apply({ type: 'modelAnswered', text, usage: res.usage });
  res.planUnits.forEach((u) => r.units.add(u));

  // The step saved the body it captured (capture.ts); its outcome comes back with the answer.
  const saved = res.saved;
  if (res.capture && saved && (res.capture.closed || res.capture.chars > 0)) {
    noteCreatedFile(r.facts, saved);
    st.apply({ type: 'bodySaved', agent: req.agent, saved, capture: res.capture });
  }
}

/**
 * The step's tool calls in order: the outcomes of those the step ran itself, the rest run here.
 * Returns the failure breaker's trip when an outcome tripped it (the run ends there).
 */
async function runToolCalls(r: AgentRun, step: number, res: LlmStepResult): Promise<BreakerTrip | null> {
  const { st, req } = r;
  const ranInStep = res.toolOutcomes ?? [];
  for (const [index, call] of res.toolCalls.entries()) {
    let outcome = index < ranInStep.length ? ranInStep[index]! : await runTool(r, step, call);
    // A delete or whole rewrite of the author's own file that their message did not ask for: ask them.
    if (!outcome.ok && outcome.errorType === 'approval_required' && outcome.approval)
      outcome = await askAuthor(
        st,
        r.hooks.acts,
        { turnId: st.input.turnId, run: r.run, step, agent: req.agent, toolCallId: call.id, flags: r.flags },
        outcome.approval,
        `${req.agent} · step ${step} · ${call.summary}`,
      );
    st.apply({ type: 'toolFinished', agent: req.agent, outcome });
    noteOutcome(r.facts, outcome);
    if (st.tripped) return st.tripped;
  }
  return null;
}

/** A call the step did not run itself (older turns, parallel_execute, after a failure). */
async function runTool(r: AgentRun, step: number, call: ToolCallRef): Promise<ToolOutcome> {
  const { st, req, hooks } = r;
  if (st.interruptRequested) throw new Interrupted();
  const toolInput = {
    turnId: st.input.turnId,
    projectId: st.input.projectId,
    run: r.run,
    step,
    agent: req.agent,
    toolCallId: call.id,
    slot: st.nextSlot(),
    flags: r.flags,
  };
  const label = `${req.agent} · step ${step} · ${call.summary}`;
  return call.name === 'parallel_execute'
    ? runParallelBatch(hooks.acts, toolInput, label)
    : hooks.acts.short.executeTool.executeWithOptions({ summary: label }, [toolInput]);
}

/** create_file succeeded in this run. */
function noteCreatedFile(facts: RunFacts, o: ToolOutcome): void {
  if (o.ok && o.name === 'create_file' && (o.op === 'created' || o.op === 'opened')) facts.createdFile = true;
}

/** What a tool outcome tells the decision after the run: a file created, a handoff, a question for the author. */
function noteOutcome(facts: RunFacts, o: ToolOutcome): void {
  noteCreatedFile(facts, o);
  if (o.ok && o.handoff) facts.handoff = o.handoff;
  if (o.ok && o.clarification) facts.clarification = o.clarification;
}

/** The model answered without tool calls: the run ends with what that last answer says. */
function noteLastAnswer(r: AgentRun, res: LlmStepResult, i: number): void {
  const { st, facts } = r;
  facts.cutShort = cutShort(res);
  // Only when the turn has nothing else to show: a continuation or review round that adds nothing is fine.
  facts.emptyAnswer =
    i === 0 && res.textChars === 0 && !res.capture && !st.shownText && !st.heldText && st.delivered.length === 0;
  facts.endsWithQuestion = res.endsWithQuestion;
  facts.question = res.question;
  facts.endsOnFileBlock = res.endsOnFileBlock;
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

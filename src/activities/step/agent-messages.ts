/**
 * Builds the Chat Completions messages for one agent step: system prompt, project brief and
 * the turn's stored context, session history with tool breadcrumbs, the working set and the
 * author's message, what teammates said earlier in this turn, the handoff packet, this run's
 * own tool loop, and any steering. Earlier steps of a run are an exact prefix of later ones
 * (until a file shown `[full]` changes), so provider prefix caches keep hitting.
 *
 * The context is assembled once per turn (see context/assembler.ts); a step reads it back
 * together with the project brief, its turn's steps and the versions of the files shown whole.
 */
import type OpenAI from 'openai';
import { buildSystemPrompt, rolePrompt, turnDirectives } from '../../agents/prompts';
import type { Models, TurnContextDoc } from '../../db/models';
import type { ProjectType } from '../../core/domain';
import { renderNotesForContext } from '../tools/project-notes';
import { detectLanguage } from '../../core/text';
import type { LlmStepInput } from '../../core/turn/turn-types';
import {
  capContextText,
  CONTEXT_FALLBACK_CHARS_PER_TOKEN,
  type ContextSettings,
  countStable,
  countTokens,
  ensureTurnContext,
  markChanged,
  MESSAGE_OVERHEAD_TOKENS,
} from '../context';
import { notFound } from '../failures';
import { stepsUpTo } from '../turn/turn-reads';
import { buildTail, type Tail } from './prompt-tail';
import { quiet } from '../../core/quiet';
import type { WorkerCaches } from '../worker-caches';
import type { ToolTurn } from '../tools/tool-context';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Who the turn belongs to (usage records need it); read from the stored context, not the Turn. */
export interface TurnOwner {
  sessionId: string;
  projectId: string;
  ownerId: string;
  jobId: string | null;
}

/** How the step's prompt spent the ledger (the ceiling only shrinks history). */
export interface LedgerUse {
  ceiling: number;
  /** Everything but history: system prompt, brief + context, working set + message, teammates, packet, tool loop, steering. */
  fixed: number;
  history: number;
  historyMessages: number;
  total: number;
  /** Files shown whole at the start of the request that changed since. */
  changed: string[];
  /** Earlier tool results of this run replaced by a stub because nothing else was left to shrink. */
  elided: number;
}

const ELIDED_RESULT =
  '{"ok":true,"elided":"This earlier tool result was dropped to keep the prompt within its token budget; call the tool again if you still need it."}';

export interface StepPrompt {
  messages: ChatMessage[];
  owner: TurnOwner;
  /**
   * What the step's tool calls need of the Turn (tool-context.ts), from the context: none of it
   * changes once the Turn exists. Null for a context stored before it kept the focus file: the
   * Turn is read then.
   */
  toolTurn: (ToolTurn & TurnOwner) | null;
  /** The reply language: the author's latest message decides. */
  language: 'zh' | 'en';
  ledger: LedgerUse;
  /** Puts the turn's context on record (StepContext.store): the step starts it once its request is out and awaits it before it records anything. */
  storeContext: () => Promise<void>;
}

/**
 * Prompt tokens of one message, counted the way the offline model and providers roughly do.
 * A `key` marks text that never changes once written (transcripts, tool results): counted once
 * per worker, kept in its `stableCounts`.
 */
function messageTokens(stableCounts: WorkerCaches['stableTokenCounts'], m: ChatMessage, key?: string): number {
  const text = typeof m.content === 'string' ? m.content : '';
  let n = MESSAGE_OVERHEAD_TOKENS + (key ? countStable(stableCounts, key, text) : countTokens(text));
  if (m.role === 'assistant' && m.tool_calls)
    for (const c of m.tool_calls)
      if (c.type === 'function')
        n +=
          countTokens(c.function.name) +
          (key ? countStable(stableCounts, `${key}:${c.id}`, c.function.arguments) : countTokens(c.function.arguments));
  return n;
}

/**
 * Files shown whole at the start of the request whose head moved on (or that were deleted) since.
 * One read per step that asks only for the files that moved on: for each version shown, the
 * files shown at it whose versionCount is now higher, and any shown file now in the trash.
 * MongoDB answers each clause from the `_id` index; the local FerretDB narrows them in SQLite
 * (scripts/ferretdb/pushdown.go), so it decodes only files that changed, usually none, where
 * reading the heads of the shown files decoded each one's whole text (accumulated bench: the
 * slowest read on the way to every request). A shown file cannot vanish without going to the
 * trash first: only trashed files are purged, and only empty files are removed outright,
 * and those are never shown whole.
 */
async function changedSinceShown(models: Models, ctx: TurnContextDoc): Promise<string[]> {
  if (!ctx.shown.length) return [];
  const byVersion = new Map<number, string[]>();
  for (const s of ctx.shown) {
    const ids = byVersion.get(s.version!) ?? [];
    if (!ids.length) byVersion.set(s.version!, ids);
    ids.push(s.fileId!);
  }
  const moved = await models.File.find({
    $or: [
      ...[...byVersion].map(([version, ids]) => ({ _id: { $in: ids }, versionCount: { $gt: version } })),
      { _id: { $in: ctx.shown.map((s) => s.fileId!) }, deletedAt: { $gte: new Date(0) } },
    ],
  })
    .select({ _id: 1 })
    .lean();
  const changed = new Set(moved.map((f) => String(f._id)));
  return ctx.shown.filter((s) => changed.has(s.fileId!)).map((s) => s.fileId!);
}

type BriefProject = {
  title: string;
  type: string;
  summary?: string | null;
  style?: string | null;
  notes?: Parameters<typeof renderNotesForContext>[0] | null;
};

/** The project's title, summary, style and notes: it opens the standing material. */
function renderProjectBrief(project: BriefProject): string {
  return [
    `Project: ${project.title} (${project.type})`,
    project.summary && `Summary: ${project.summary}`,
    project.style && `Style: ${project.style}`,
    project.notes && renderNotesForContext(project.notes),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The task board, read on every step: it may change mid-turn, so it goes with what moves. */
function renderTaskBoard(tasks: { status?: string | null; title?: string | null; progress?: string | null }[]): string {
  return tasks.length
    ? `\n\nTask board:\n${tasks.map((t) => `- [${t.status}] ${t.title}${t.progress ? ` (${t.progress})` : ''}`).join('\n')}`
    : '';
}

/** What a step's prompt is built from: the turn's context, its steps so far, the project and the files that changed. */
async function readStepInputs(models: Models, caches: WorkerCaches, input: LlmStepInput, settings: ContextSettings) {
  // On the path of every model call: the turn's context and steps, the project brief (its task
  // board may change mid-turn) and the heads of the files shown whole. Once this worker holds
  // the context (every step after the first), the four reads go out together: one round trip.
  const stepContext = ensureTurnContext(models, caches, settings, input.turnId, input.scope.scope, input.language);
  const readProject = (projectId: string) =>
    models.Project.findById(projectId).select({ title: 1, type: 1, summary: 1, style: 1, notes: 1, tasks: 1 }).lean();
  // The turn names its project (since LlmStepInput.projectId): the first step, which builds the
  // context, reads the project beside it instead of after it.
  const early = input.projectId ? quiet(readProject(input.projectId).exec()) : null;
  const [{ context: ctx, store: storeContext }, steps, project, changed] = await Promise.all([
    stepContext,
    stepsUpTo(models, input.turnId, input.step - 1),
    stepContext.then(({ context }) =>
      early && context.projectId === input.projectId ? early : readProject(context.projectId),
    ),
    stepContext.then(({ context }) => changedSinceShown(models, context)),
  ]);
  if (!project) throw notFound('Project', ctx.projectId);
  return { ctx, storeContext, steps, project, changed };
}

type StepProject = Awaited<ReturnType<typeof readStepInputs>>['project'];

/** The messages around the history and the author's message, and the parts of them counted afresh. */
interface PromptFrame {
  head: ChatMessage[];
  turnContext: ChatMessage;
  user: ChatMessage;
  projectBrief: string;
  taskBoard: string;
  role: string;
  scopeAndLanguage: string;
  /** Tokens of the project context as sent: the stored count unless the fallback cap cut it. */
  contextTokens: number;
}

/**
 * The stored context's two parts as the step sends them: only trimmed and, past the fallback
 * cap, cut at a line boundary with a line saying so; nothing else touches the text, so the
 * file list and the files shown keep their line breaks.
 */
function rawContext(ctx: TurnContextDoc, capChars: number): { standing: string; moving: string; tokens: number } {
  const standing = capContextText(ctx.context, capChars);
  const moving = capContextText(ctx.contextMoving ?? '', capChars);
  // Counted afresh only when cut: the stored count was measured at assembly.
  const tokens = standing.cut || moving.cut ? countTokens(standing.text) + countTokens(moving.text) : ctx.contextTokens;
  return { standing: standing.text, moving: moving.text, tokens };
}

/** The shared instructions, the project and the turn's context, the agent's directives and the author's message. */
function promptFrame(
  input: LlmStepInput,
  ctx: TurnContextDoc,
  project: StepProject,
  changed: string[],
  language: 'zh' | 'en',
  capChars: number,
): PromptFrame {
  const system = buildSystemPrompt({ projectType: project.type as ProjectType });
  // The agent's role and this turn's directives: what differs between agents goes after
  // everything they share (their tools are one list too), so the next agent of a turn finds
  // the project, the history and the turn's context in the provider's prefix cache.
  const role = rolePrompt(input.agent);
  const scopeAndLanguage = turnDirectives(input.agent, { language, scope: input.scope });
  const directives = `${role}\n\n${scopeAndLanguage}`;
  const projectBrief = renderProjectBrief(project);
  // What stays the same comes first, for providers' prefix caches: the shared
  // instructions, then the project and its standing material, then the session history (it
  // only grows at its end); what moves from turn to turn — the file list, chapters, the task
  // board — follows the history, then the agent's role, this turn's scope and language, then
  // the author's message.
  const taskBoard = renderTaskBoard(project.tasks);
  const raw = rawContext(ctx, capChars);
  const moving = `${markChanged(raw.moving, changed)}${taskBoard}\n\n${directives}`;

  const head: ChatMessage[] = [
    { role: 'system', content: `${system}${ctx.skillCatalog ?? ''}` },
    { role: 'system', content: `${projectBrief}\n\n${markChanged(raw.standing, changed)}` },
  ];
  const turnContext: ChatMessage = { role: 'system', content: moving };
  const user: ChatMessage = { role: 'user', content: markChanged(ctx.userContent, changed) };
  return { head, turnContext, user, projectBrief, taskBoard, role, scopeAndLanguage, contextTokens: raw.tokens };
}

/** Prompt tokens of everything but history. */
function fixedTokens(
  stableCounts: WorkerCaches['stableTokenCounts'],
  input: LlmStepInput,
  ctx: TurnContextDoc,
  frame: PromptFrame,
  changed: string[],
  { tail, keys }: Tail,
): number {
  // The stored parts were measured once at assembly; only this step's own parts are counted here.
  const markTokens = changed.length
    ? countTokens(markChanged('(id=000000000000000000000000) [full]', ['000000000000000000000000']))
    : 0;
  return (
    3 +
    // The shared instructions and the role are the same text on every step of a turn: counted once.
    messageTokens(stableCounts, frame.head[0]!, `system:${input.turnId}`) +
    MESSAGE_OVERHEAD_TOKENS +
    countTokens(frame.projectBrief) +
    1 +
    frame.contextTokens +
    MESSAGE_OVERHEAD_TOKENS +
    countTokens(frame.taskBoard) +
    countStable(stableCounts, `role:${input.agent}`, frame.role) +
    1 +
    countTokens(frame.scopeAndLanguage) +
    MESSAGE_OVERHEAD_TOKENS +
    ctx.userTokens +
    changed.length * markTokens +
    tail.reduce((n, m, i) => n + messageTokens(stableCounts, m, keys[i]), 0)
  );
}

/**
 * The ledger shrinks only history; when even an empty history leaves the prompt over the
 * ceiling (a long tool loop), the oldest tool results of this run give way, the latest never.
 * Replaces them in `t.tail`; returns the prompt's fixed tokens after and how many gave way.
 */
function elideOldToolResults(
  stableCounts: WorkerCaches['stableTokenCounts'],
  t: Tail,
  fixedBefore: number,
  ceiling: number,
): { fixed: number; elided: number } {
  const { tail, keys } = t;
  let fixed = fixedBefore;
  let elided = 0;
  for (const i of t.elidable) {
    if (fixed <= ceiling) break;
    const before = messageTokens(stableCounts, tail[i]!, keys[i]);
    tail[i] = { ...(tail[i] as OpenAI.Chat.Completions.ChatCompletionToolMessageParam), content: ELIDED_RESULT };
    fixed -= before - messageTokens(stableCounts, tail[i]!);
    elided++;
  }
  return { fixed, elided };
}

/** The newest session history that fits in `room` tokens, oldest first. */
function fitHistory(
  stored: TurnContextDoc['history'],
  room: number,
): { history: ChatMessage[]; historyTokens: number } {
  const history: ChatMessage[] = [];
  let historyTokens = 0;
  for (const m of stored) {
    if (historyTokens + m.tokens! > room) break;
    historyTokens += m.tokens!;
    history.push(
      m.role === 'assistant' ? { role: 'assistant', content: m.content! } : { role: 'user', content: m.content! },
    );
  }
  history.reverse();
  return { history, historyTokens };
}

/** The step's prompt; `caches` are the worker's (the turn's context and the counts of texts seen before). */
export async function buildAgentMessages(
  models: Models,
  caches: WorkerCaches,
  given: LlmStepInput,
  settings: ContextSettings,
  packet: Promise<string | null> | string | null = given.packet,
): Promise<StepPrompt> {
  // The step's reads go out while its packet is still being expanded (the reviewer's evidence
  // reads, llm.ts): they need only the turn's ids, and one round trip less is on its path.
  const [{ ctx, storeContext, steps, project, changed }, expanded] = await Promise.all([
    readStepInputs(models, caches, given, settings),
    packet,
  ]);
  const input: LlmStepInput = { ...given, packet: expanded };
  const language = input.language ?? detectLanguage(ctx.message);
  const frame = promptFrame(
    input,
    ctx,
    project,
    changed,
    language,
    settings.contextTokens * CONTEXT_FALLBACK_CHARS_PER_TOKEN,
  );
  const t = buildTail(steps, input);
  const fixedBefore = fixedTokens(caches.stableTokenCounts, input, ctx, frame, changed, t);
  const { fixed, elided } = elideOldToolResults(caches.stableTokenCounts, t, fixedBefore, settings.ledgerCeiling);
  // The ceiling only shrinks history: everything else is already in.
  const room = Math.max(0, Math.min(settings.historyTokens, settings.ledgerCeiling - fixed));
  const { history, historyTokens } = fitHistory(ctx.history, room);

  const owner: TurnOwner = {
    sessionId: ctx.sessionId,
    projectId: ctx.projectId,
    ownerId: ctx.ownerId,
    jobId: ctx.jobId ?? null,
  };
  return {
    messages: [...frame.head, ...history, frame.turnContext, frame.user, ...t.tail],
    owner,
    toolTurn: ctx.focusFileId === undefined ? null : { ...owner, message: ctx.message, focusFileId: ctx.focusFileId },
    language,
    storeContext,
    ledger: {
      ceiling: settings.ledgerCeiling,
      fixed,
      history: historyTokens,
      historyMessages: history.length,
      total: fixed + historyTokens,
      changed,
      elided,
    },
  };
}

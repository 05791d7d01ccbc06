/**
 * A turn as the author sees it, folded from its stream events in order: the agents that
 * worked, their text and thinking, their steps (tool calls) in a form a client can word for
 * people, file cards, handoffs, approvals and decisions, stops, steering, the reviewer's
 * verdict, usage and cost, suggestions.
 *
 * One fold, two readers: Studio applies it to the live stream, and the end of every turn
 * folds the whole stream into the turn's durable record (src/activities/turn/turn-view-record.ts),
 * so a finished turn reads the same live, after a reload and after its stream expired.
 *
 * Pure module (Studio bundles it: no Node). `foldTurn` copies
 * only what it changes, so React sees a new array per batch and unchanged items stay equal.
 */
import type { AgentName, RefusalKind, StreamEvent } from '../events';
import { voidedByRetry } from '../step-retry';
import { parseVerdict } from '../verdict';

/** What became of a file card: saved (created / updated), moved to the trash, still streaming, or dropped unsaved. */
export type FileCardOp = 'created' | 'updated' | 'deleted' | 'streaming' | 'discarded';

/** A tool call, kept as facts (never shown as they are: a client words them for people). */
export interface ToolStep {
  kind: 'tool';
  id: string;
  /** The tool's name: a key for the client's wording, not text for the author. */
  tool: string;
  /** What the call was about, as a person names it: a file's title, an agent, a search, a skill. */
  target?: string;
  /** Sub-tasks of a batch (parallel_execute). */
  count?: number;
  /** A search of the files (query_files by words): `target` is what was searched for. */
  search?: boolean;
  ok?: boolean;
  refusal?: RefusalKind;
  /** Why it failed (a key for the client's wording; never shown as it is). */
  errorType?: string;
  /** The author was asked first (approval_requested), and what they decided. */
  approval?: 'asked' | 'approve' | 'deny' | 'timeout';
  /** Where a body the author's edit kept out of a file went instead (a new file's title). */
  keptIn?: string;
}

export interface FileCard {
  kind: 'file';
  fileId: string;
  title: string;
  fileType: string;
  words: number;
  op: FileCardOp;
  /** The file's version this turn saved (absent while streaming, after a delete, or in events that predate it). */
  version?: number;
  /** Characters streamed into the file so far, and the body as it streams (empty once saved). */
  live: number;
  body: string;
  step?: number;
}

export type ApprovalDecision = 'approve' | 'deny' | 'timeout';

export type TurnItem =
  | { kind: 'agent'; agent: AgentName; plan?: string }
  | { kind: 'text'; agent?: AgentName; step?: number; text: string }
  | { kind: 'thinking'; agent?: AgentName; step?: number; text: string }
  | ToolStep
  | FileCard
  | { kind: 'handoff'; text: string; from?: AgentName; to?: AgentName }
  | { kind: 'stopped'; reason: string; message: string; terminal: boolean }
  | { kind: 'steer'; message: string; step?: number }
  | { kind: 'retry'; step?: number }
  | {
      kind: 'approval';
      approvalId: string;
      toolCallId?: string;
      action: 'delete' | 'rewrite';
      title: string;
      files: { id: string; title: string }[];
      preview: string;
      /** A rewrite: lines gone and come, and the start of the text that would go. */
      change?: { removed: number; added: number };
      excerpt?: string;
      decision?: ApprovalDecision;
    }
  | { kind: 'error'; code: string; message: string };

export interface TurnView {
  turnId: string;
  userText: string;
  items: TurnItem[];
  status: 'running' | 'done';
  /** The turn's status at `done` (completed, interrupted, failed, …). */
  doneStatus?: string;
  suggestions: string[];
  tokens: number;
  costUsd: number | null;
  verdict?: 'pass' | 'revise';
  /** A task-board change came by: the board should be reloaded (live only). */
  boardChanged: number;
  /** Files written by this turn so far: the tree reloads on a change (live only). */
  filesChanged: number;
}

export const newTurnView = (turnId: string, userText: string): TurnView => ({
  turnId,
  userText,
  items: [],
  status: 'running',
  suggestions: [],
  tokens: 0,
  costUsd: null,
  boardChanged: 0,
  filesChanged: 0,
});

/** The index of the last item that matches (-1 when none). */
function lastIndex(items: TurnItem[], pred: (item: TurnItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return i;
  return -1;
}

const isFile =
  (fileId: string) =>
  (x: TurnItem): x is FileCard =>
    x.kind === 'file' && x.fileId === fileId;
const isTool =
  (id: string) =>
  (x: TurnItem): x is ToolStep =>
    x.kind === 'tool' && x.id === id;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** The title of a file this turn already showed (a call that names a file by id only). */
function knownTitle(items: TurnItem[], fileId: unknown): string | undefined {
  if (typeof fileId !== 'string') return undefined;
  const i = lastIndex(items, isFile(fileId));
  return i >= 0 ? str((items[i] as FileCard).title) : undefined;
}

/** What a call is about, from its arguments: never an id (an id becomes the file's title when known). */
function targetOfCall(items: TurnItem[], args: Record<string, unknown>): string | undefined {
  return str(args.title) ?? str(args.agent) ?? str(args.query) ?? str(args.skill) ?? knownTitle(items, args.id);
}

/** What a result names: the file it read, wrote or deleted. */
function targetOfResult(result: Record<string, unknown> | undefined): string | undefined {
  if (!result) return undefined;
  const deleted = Array.isArray(result.deleted) ? (result.deleted[0] as { title?: unknown } | undefined) : undefined;
  return str(result.title) ?? str(deleted?.title);
}

/** A file saved or deleted: the card that was streaming its body (or the last one, if it is the newest item) becomes the saved card. */
function fileSaved(items: TurnItem[], e: Extract<StreamEvent, { type: 'file_created' | 'file_updated' }>): void {
  const d = e.data;
  const deleted = e.type === 'file_updated' && e.data.operation === 'delete';
  const i = lastIndex(items, isFile(d.fileId));
  const prior = i >= 0 ? (items[i] as FileCard) : null;
  // A file this turn created and then streamed into stays "created" when its body is saved.
  const op: FileCardOp = deleted
    ? 'deleted'
    : e.type === 'file_created' || (prior?.op === 'created' && prior.live > 0)
      ? 'created'
      : 'updated';
  const version = d.version;
  const card: FileCard = {
    kind: 'file',
    fileId: d.fileId,
    title: d.title,
    fileType: d.fileType,
    words: d.words,
    op,
    live: 0,
    body: '',
    ...(version ? { version } : {}),
  };
  if (prior && (prior.op === 'streaming' || prior.live > 0 || i === items.length - 1)) items[i] = card;
  else items.push(card);
}

/** A tool call: a step named by what it is about. */
function toolCalled(list: TurnItem[], e: Extract<StreamEvent, { type: 'tool_call' }>): void {
  const args = e.data.arguments;
  const tasks = Array.isArray(args.tasks) ? args.tasks.length : undefined;
  const search = e.data.name === 'query_files' && !args.id && typeof args.query === 'string' ? true : undefined;
  list.push({
    kind: 'tool',
    id: e.toolCallId,
    tool: e.data.name,
    ...opt('target', targetOfCall(list, args)),
    ...opt('count', tasks),
    ...opt('search', search),
  });
}

/** A tool's answer, on the step that called it. */
function toolAnswered(list: TurnItem[], e: Extract<StreamEvent, { type: 'tool_result' }>): void {
  const d = e.data;
  const i = lastIndex(list, isTool(e.toolCallId));
  const keptIn = str((d.result?.kept_in as { title?: unknown } | undefined)?.title);
  const fields = {
    ok: d.ok,
    ...opt('refusal', d.refusal),
    ...opt('errorType', d.ok ? undefined : d.errorType),
    ...opt('keptIn', keptIn),
  };
  if (i >= 0) {
    const step = list[i] as ToolStep;
    list[i] = { ...step, ...fields, ...opt('target', step.target ?? targetOfResult(d.result)) };
    return;
  }
  // A save refused after the call (the author edited the file meanwhile): its own step.
  const fileId = e.toolCallId.startsWith('save:') ? e.toolCallId.slice(5) : undefined;
  list.push({
    kind: 'tool',
    id: e.toolCallId,
    tool: d.name,
    ...fields,
    ...opt('target', knownTitle(list, fileId) ?? targetOfResult(d.result)),
  });
}

/** The author is asked: a card with the question, and the step that asked marked as asking. */
function approvalAsked(list: TurnItem[], e: Extract<StreamEvent, { type: 'approval_requested' }>): void {
  const d = e.data;
  list.push({
    kind: 'approval',
    approvalId: d.approvalId,
    ...opt('toolCallId', e.toolCallId),
    action: d.action,
    title: d.title,
    files: d.files,
    preview: d.preview,
    ...opt('change', d.change),
    ...opt('excerpt', d.excerpt),
  });
  const t = e.toolCallId ? lastIndex(list, isTool(e.toolCallId)) : -1;
  if (t >= 0)
    list[t] = {
      ...(list[t] as ToolStep),
      approval: 'asked',
      target: d.files.map((f) => f.title).join(', ') || d.title,
    };
}

/** The author's decision, on the card and on the step that asked. */
function approvalDecided(list: TurnItem[], e: Extract<StreamEvent, { type: 'approval_decided' }>): void {
  const i = lastIndex(list, (x) => x.kind === 'approval' && x.approvalId === e.data.approvalId);
  if (i < 0) return;
  const card = list[i] as Extract<TurnItem, { kind: 'approval' }>;
  list[i] = { ...card, decision: e.data.decision };
  const t = card.toolCallId ? lastIndex(list, isTool(card.toolCallId)) : -1;
  if (t >= 0) list[t] = { ...(list[t] as ToolStep), approval: e.data.decision };
}

/** Streamed text or thinking: it extends the last item when that is the same agent's same step, else starts one. */
function textStreamed(v: TurnView, list: TurnItem[], e: Extract<StreamEvent, { type: 'content' | 'thinking' }>): void {
  const kind = e.type === 'content' ? 'text' : 'thinking';
  const l = list[list.length - 1];
  if (l && l.kind === kind && l.step === e.step && l.agent === e.agent)
    list[list.length - 1] = { ...l, text: l.text + e.data.delta };
  else list.push({ kind, agent: e.agent, step: e.step, text: e.data.delta });
  if (kind === 'text' && e.agent === 'quality_reviewer') {
    const verdict = parseVerdict((list[list.length - 1] as { text: string }).text);
    if (verdict !== 'none') v.verdict = verdict;
  }
}

/** The event kind each streamed part of the view is built from, to ask the contract what a retry voids. */
const STREAMED_FROM = { text: 'content', thinking: 'thinking', body: 'file_content' } as const;

/**
 * The step starts over: what the contract voids ({@link voidedByRetry}) goes — its text,
 * thinking, and the body of the file it was streaming — and all else stands: its tool steps,
 * saved files, and the usage already counted (the retry does not send it again).
 */
function stepRetried(v: TurnView, list: TurnItem[], e: Extract<StreamEvent, { type: 'step_retry' }>): void {
  const voided = (part: keyof typeof STREAMED_FROM, step: number | undefined) =>
    voidedByRetry({ type: STREAMED_FROM[part], step }, e);
  v.items = list
    .filter((i) => !((i.kind === 'text' || i.kind === 'thinking') && voided(i.kind, i.step)))
    .map((i) => (i.kind === 'file' && i.live > 0 && voided('body', i.step) ? { ...i, body: '', live: 0 } : i));
  v.items.push({ kind: 'retry', step: e.step });
}

/** A file's body as it streams: on its card, or on a new streaming card. */
function fileStreamed(list: TurnItem[], e: Extract<StreamEvent, { type: 'file_content' }>): void {
  const i = lastIndex(list, isFile(e.data.fileId));
  if (i >= 0) {
    const f = list[i] as FileCard;
    list[i] = { ...f, live: f.live + e.data.delta.length, body: f.body + e.data.delta, ...opt('step', e.step) };
  } else
    list.push({
      kind: 'file',
      fileId: e.data.fileId,
      title: '',
      fileType: '',
      words: 0,
      op: 'streaming',
      live: e.data.delta.length,
      body: e.data.delta,
      step: e.step,
    });
}

function turnDone(v: TurnView, e: Extract<StreamEvent, { type: 'done' }>): void {
  v.status = 'done';
  v.doneStatus = e.data.status;
  // A body still streaming when the turn ended was never saved (a Stop, a failure): it
  // no longer looks as if it were being written.
  v.items = v.items.map((i) =>
    i.kind === 'file' && (i.op === 'streaming' || i.live > 0) ? { ...i, op: 'discarded', body: '', live: 0 } : i,
  );
}

/**
 * Applies a batch of events in order; returns the same view when the batch is empty.
 * Events the view does not show (turn_started, job_progress, reset, the feed's) pass by.
 */
export function foldTurn(view: TurnView, events: readonly StreamEvent[]): TurnView {
  if (!events.length) return view;
  const v: TurnView = { ...view, items: view.items.slice() };
  const items = (): TurnItem[] => v.items;
  for (const e of events) {
    const list = items();
    switch (e.type) {
      case 'agent_selected':
        list.push({ kind: 'agent', agent: e.data.agent, ...(e.data.plan ? { plan: e.data.plan } : {}) });
        break;
      case 'content':
      case 'thinking':
        textStreamed(v, list, e);
        break;
      case 'step_retry':
        stepRetried(v, list, e);
        break;
      case 'tool_call':
        toolCalled(list, e);
        break;
      case 'tool_result':
        toolAnswered(list, e);
        if (e.data.name === 'update_project' && e.data.ok) v.boardChanged += 1;
        break;
      case 'file_content':
        fileStreamed(list, e);
        break;
      case 'file_created':
      case 'file_updated':
        fileSaved(list, e);
        v.filesChanged += 1;
        break;
      case 'handoff':
        list.push({ kind: 'handoff', text: e.data.text ?? '', from: e.data.from, to: e.data.to });
        break;
      case 'workflow_stopped':
        list.push({ kind: 'stopped', reason: e.data.reason, message: e.data.message, terminal: e.data.terminal });
        break;
      case 'steering_received':
        list.push({ kind: 'steer', message: e.data.message, ...opt('step', e.step) });
        break;
      case 'usage':
        v.tokens += e.data.totalTokens;
        if (typeof e.data.costUsd === 'number') v.costUsd = (v.costUsd ?? 0) + e.data.costUsd;
        break;
      case 'approval_requested':
        approvalAsked(list, e);
        break;
      case 'approval_decided':
        approvalDecided(list, e);
        break;
      case 'error':
        list.push({ kind: 'error', code: e.data.code, message: e.data.message });
        break;
      case 'suggestions':
        v.suggestions = e.data.items;
        break;
      case 'done':
        turnDone(v, e);
        break;
      default:
        break;
    }
  }
  return v;
}

/** `{ [key]: value }` when the value is set, else nothing (keeps stored records free of `undefined`). */
function opt<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

/**
 * The view as it is kept once the turn has ended: no file bodies (the files hold them, with
 * their versions), no live counters. What the author saw when the turn finished.
 */
export function settledView(view: TurnView): TurnView {
  return {
    ...view,
    items: view.items.map((i) => (i.kind === 'file' ? { ...i, body: '', live: 0 } : i)),
    boardChanged: 0,
    filesChanged: 0,
  };
}

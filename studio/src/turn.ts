/**
 * A turn as the author sees it, built from its stream events in order: the agents that
 * worked, their text (and thinking), tool steps, file cards, handoffs, stops, steering,
 * approvals, the reviewer's verdict, suggestions and usage. `apply` is pure apart from
 * copying the item it changes, so React sees a new array per batch.
 */
import { parseVerdict } from '../../src/core/verdict';
import type { StreamEvent } from './events';

export type Item =
  | { kind: 'agent'; agent: string; plan?: string }
  | { kind: 'text'; agent?: string; step?: number; text: string }
  | { kind: 'thinking'; agent?: string; step?: number; text: string }
  | { kind: 'tool'; id: string; name: string; summary: string; ok?: boolean; refusal?: string; message?: string }
  | { kind: 'file'; fileId: string; title: string; fileType: string; words: number; op: 'created' | 'updated' | 'streaming'; live: number; body: string; step?: number }
  | { kind: 'handoff'; text: string }
  | { kind: 'stopped'; reason: string; message: string }
  | { kind: 'steer'; message: string }
  | { kind: 'retry'; step?: number }
  | { kind: 'approval'; approvalId: string; action: 'delete' | 'rewrite'; title: string; files: { id: string; title: string }[]; preview: string; decision?: string }
  | { kind: 'error'; message: string };

export interface TurnView {
  turnId: string;
  userText: string;
  items: Item[];
  status: 'running' | 'done';
  doneStatus?: string;
  suggestions: string[];
  tokens: number;
  costUsd: number | null;
  verdict?: 'pass' | 'revise';
  /** A task-board change came by: the board should be reloaded. */
  boardChanged: number;
  /** Files written by this turn so far (the tree reloads on a change). */
  filesChanged: number;
}

export const newTurn = (turnId: string, userText: string): TurnView => ({
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
function lastIndex(items: Item[], pred: (item: Item) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return i;
  return -1;
}

/** Applies a batch of events; returns the same view when nothing changed. */
export function apply(view: TurnView, events: StreamEvent[]): TurnView {
  if (!events.length) return view;
  const v: TurnView = { ...view, items: view.items.slice() };
  const last = () => v.items[v.items.length - 1];
  const replaceLast = (item: Item) => (v.items[v.items.length - 1] = item);
  for (const e of events) {
    switch (e.type) {
      case 'agent_selected':
        v.items.push({ kind: 'agent', agent: e.data.agent, plan: e.data.plan });
        break;
      case 'content':
      case 'thinking': {
        const kind = e.type === 'content' ? 'text' : 'thinking';
        const l = last();
        if (l && l.kind === kind && l.step === e.step && l.agent === e.agent) replaceLast({ ...l, text: l.text + e.data.delta });
        else v.items.push({ kind, agent: e.agent, step: e.step, text: e.data.delta });
        if (kind === 'text' && e.agent === 'quality_reviewer') {
          const t = (last() as { text: string }).text;
          const verdict = parseVerdict(t);
          if (verdict !== 'none') v.verdict = verdict;
        }
        break;
      }
      case 'step_retry':
        // The step starts over: its partial text so far is dropped (the contract's promise),
        // the file body it was streaming too. (`step_resumed` keeps both: the step goes on.)
        v.items = v.items
          .filter((i) => !((i.kind === 'text' || i.kind === 'thinking') && i.step === e.step))
          .map((i) => (i.kind === 'file' && i.op === 'streaming' && i.step === e.step ? { ...i, body: '', live: 0 } : i));
        v.items.push({ kind: 'retry', step: e.step });
        break;
      case 'tool_call':
        v.items.push({ kind: 'tool', id: e.toolCallId, name: e.data.name, summary: e.data.summary });
        break;
      case 'tool_result': {
        const i = lastIndex(v.items, (x) => x.kind === 'tool' && x.id === e.toolCallId);
        if (i >= 0) v.items[i] = { ...(v.items[i] as Extract<Item, { kind: 'tool' }>), ok: e.data.ok, refusal: e.data.refusal, message: e.data.ok ? undefined : e.data.message };
        if (e.data.name === 'update_project' && e.data.ok) v.boardChanged += 1;
        break;
      }
      case 'file_content': {
        const i = lastIndex(v.items, (x) => x.kind === 'file' && x.fileId === e.data.fileId);
        if (i >= 0) {
          const f = v.items[i] as Extract<Item, { kind: 'file' }>;
          v.items[i] = { ...f, live: f.live + e.data.delta.length, body: f.body + e.data.delta };
        } else v.items.push({ kind: 'file', fileId: e.data.fileId, title: '', fileType: '', words: 0, op: 'streaming', live: e.data.delta.length, body: e.data.delta, step: e.step });
        break;
      }
      case 'file_created':
      case 'file_updated': {
        const op = e.type === 'file_created' ? 'created' : 'updated';
        const i = lastIndex(v.items, (x) => x.kind === 'file' && x.fileId === e.data.fileId);
        const card: Item = { kind: 'file', fileId: e.data.fileId, title: e.data.title, fileType: e.data.fileType, words: e.data.words, op, live: 0, body: '' };
        if (i >= 0 && (v.items[i] as Extract<Item, { kind: 'file' }>).op === 'streaming') v.items[i] = card;
        else if (i >= 0 && i === v.items.length - 1) v.items[i] = card;
        else v.items.push(card);
        v.filesChanged += 1;
        break;
      }
      case 'handoff':
        v.items.push({ kind: 'handoff', text: e.data.text ?? `${e.data.from} → ${e.data.to}` });
        break;
      case 'workflow_stopped':
        v.items.push({ kind: 'stopped', reason: e.data.reason, message: e.data.message });
        break;
      case 'steering_received':
        v.items.push({ kind: 'steer', message: e.data.message });
        break;
      case 'usage':
        v.tokens += e.data.totalTokens;
        if (typeof e.data.costUsd === 'number') v.costUsd = (v.costUsd ?? 0) + e.data.costUsd;
        break;
      case 'approval_requested':
        v.items.push({ kind: 'approval', approvalId: e.data.approvalId, action: e.data.action, title: e.data.title, files: e.data.files, preview: e.data.preview });
        break;
      case 'approval_decided': {
        const i = lastIndex(v.items, (x) => x.kind === 'approval' && x.approvalId === e.data.approvalId);
        if (i >= 0) v.items[i] = { ...(v.items[i] as Extract<Item, { kind: 'approval' }>), decision: e.data.decision };
        break;
      }
      case 'error':
        v.items.push({ kind: 'error', message: e.data.message });
        break;
      case 'suggestions':
        v.suggestions = e.data.items;
        break;
      case 'done':
        v.status = 'done';
        v.doneStatus = e.data.status;
        break;
      default:
        break;
    }
  }
  return v;
}

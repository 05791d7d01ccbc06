/** JSON shapes the API returns: ids as strings, no internal fields. */
import { sessionKindOf } from '../core/session-names';
import type { FileDoc, FileVersionDoc, MessageDoc, ProjectDoc, SessionDoc, TurnDoc } from '../db/models';

/** The named fields of a document as they are: the plain part of each shape below. */
export function pick<T, K extends keyof T>(doc: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, doc[k]])) as Pick<T, K>;
}

export const presentProject = (p: ProjectDoc) => ({
  id: String(p._id),
  ...pick(p, ['title', 'type', 'summary', 'style', 'notes', 'tasks', 'createdAt', 'updatedAt']),
  author: p.author ?? '',
  wordGoal: p.wordGoal ?? null,
  chapterWordGoal: p.chapterWordGoal ?? null,
});

/** A session: `kind` keeps a job's own session apart from the author's conversations. */
export const presentSession = (s: SessionDoc) => ({
  id: String(s._id),
  projectId: s.projectId,
  title: s.title,
  ...sessionKindOf(s),
  jobId: s.jobId ?? null,
  createdAt: s.createdAt,
});

export const presentMessage = (m: MessageDoc) => ({
  id: String(m._id),
  ...pick(m, ['turnId', 'role', 'agent', 'content', 'breadcrumb', 'seq', 'createdAt']),
});

export const presentTurn = (t: TurnDoc) => ({
  id: String(t._id),
  ...pick(t, [
    'sessionId',
    'projectId',
    'workflowId',
    'status',
    'stopReason',
    'message',
    'routing',
    'agentRuns',
    'filesTouched',
    'usage',
    'jobId',
    'createdAt',
    'endedAt',
  ]),
  skills: t.skills ?? [],
  suggestions: t.suggestions ?? [],
  pendingApproval: t.status === 'awaiting_approval' ? (t.pendingApproval ?? null) : null,
});

/** A file without its text: what lists return (a project can hold fifty chapters). */
export const presentFileSummary = (f: FileDoc) => ({
  id: String(f._id),
  ...pick(f, ['projectId', 'type', 'title', 'parentId', 'order', 'words', 'latestAuthor', 'createdAt', 'updatedAt']),
  version: f.versionCount,
  importance: f.importance ?? null,
  wordGoal: f.wordGoal ?? null,
});

/** One version in a file's history; `content` only when a single version is asked for. */
export const presentVersion = (v: Omit<FileVersionDoc, 'content'> & { content?: string }, withContent = false) => ({
  version: v.version,
  author: v.author,
  agent: v.agent,
  words: v.words,
  operation: v.operation,
  turnId: v.turnId,
  /** How many of the author's saves this version stands for (an autosave burst folds many into one). */
  saves: v.saves ?? 1,
  restoredFrom: v.restoredFrom ?? null,
  createdAt: v.createdAt,
  ...(withContent ? { content: v.content ?? '' } : {}),
});

/** A file with its current text. */
export const presentFile = (f: FileDoc) => ({ ...presentFileSummary(f), content: f.content });

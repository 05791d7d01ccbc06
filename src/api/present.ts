/** JSON shapes the API returns: ids as strings, no internal fields. */
import { sessionKindOf } from '../core/session-names';
import type { FileDoc, FileVersionDoc, MessageDoc, ProjectDoc, SessionDoc, TurnDoc } from '../db/models';

export const presentProject = (p: ProjectDoc) => ({
  id: String(p._id),
  title: p.title,
  type: p.type,
  summary: p.summary,
  author: p.author ?? '',
  style: p.style,
  notes: p.notes,
  tasks: p.tasks,
  wordGoal: p.wordGoal ?? null,
  chapterWordGoal: p.chapterWordGoal ?? null,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
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
  turnId: m.turnId,
  role: m.role,
  agent: m.agent,
  content: m.content,
  breadcrumb: m.breadcrumb,
  seq: m.seq,
  createdAt: m.createdAt,
});

export const presentTurn = (t: TurnDoc) => ({
  id: String(t._id),
  sessionId: t.sessionId,
  projectId: t.projectId,
  workflowId: t.workflowId,
  status: t.status,
  stopReason: t.stopReason,
  message: t.message,
  routing: t.routing,
  agentRuns: t.agentRuns,
  filesTouched: t.filesTouched,
  usage: t.usage,
  jobId: t.jobId,
  skills: t.skills ?? [],
  suggestions: t.suggestions ?? [],
  pendingApproval: t.status === 'awaiting_approval' ? (t.pendingApproval ?? null) : null,
  createdAt: t.createdAt,
  endedAt: t.endedAt,
});

/** A file without its text: what lists return (a project can hold fifty chapters). */
export const presentFileSummary = (f: FileDoc) => ({
  id: String(f._id),
  projectId: f.projectId,
  type: f.type,
  title: f.title,
  parentId: f.parentId,
  order: f.order,
  words: f.words,
  version: f.versionCount,
  latestAuthor: f.latestAuthor,
  importance: f.importance ?? null,
  wordGoal: f.wordGoal ?? null,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
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

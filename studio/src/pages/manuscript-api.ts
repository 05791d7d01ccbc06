/**
 * The manuscript routes as Studio uses them: the paged files list, the board, chapter moves,
 * search, goals, and editing or deleting a project. Types of what those routes answer.
 */
import { api, type FileSummary, get, post, type Project } from '../api';
import type { BodyFileType } from '../../../src/core/book/file-types';

/** A file as the paged list gives it (with its word goal). */
export type TreeFile = FileSummary & { wordGoal?: number | null; createdAt?: string };

/** One page of the files list: `total` and `counts` describe the whole list. */
export interface FilesPage {
  items: TreeFile[];
  total: number;
  counts: Partial<Record<FileSummary['type'], number>>;
  offset: number;
  nextOffset: number | null;
}

export const filesPage = (projectId: string, offset: number, limit: number) =>
  get<FilesPage>(`/projects/${projectId}/files?limit=${limit}&offset=${offset}`);

export type ChapterStatus = 'planned' | 'drafted' | 'reviewed';

export interface BoardItem {
  fileId: string | null;
  number: number | null;
  title: string;
  status: ChapterStatus;
  words: number;
  wordGoal: number | null;
  synopsis: string;
  suggestedTitle?: string;
  version?: number;
}

export interface BoardData {
  projectId: string;
  wordGoal: number | null;
  chapterWordGoal: number | null;
  totals: { chapters: number; files: number; words: number; planned: number; drafted: number; reviewed: number };
  outlines: { id: string; title: string }[];
  /** The job writing chapters by number: its range, what it has done, the chapter it writes now. */
  writingJob: { id: string; status: string; from: number; to: number; done: number[]; writing: number | null } | null;
  items: BoardItem[];
}

export const loadBoard = (projectId: string) => get<BoardData>(`/projects/${projectId}/board`);

export interface ReorderResult {
  order: string[];
  renamed: { fileId: string; from: string; to: string }[];
  skipped: string[];
}

export const moveChapter = (projectId: string, fileId: string, to: number) =>
  post<ReorderResult>(`/projects/${projectId}/chapters/move`, { fileId, to });
export const renumberChapters = (projectId: string) => post<ReorderResult>(`/projects/${projectId}/chapters/renumber`);
export const patchFile = (fileId: string, body: { title?: string; wordGoal?: number | null }) =>
  api<TreeFile>('PATCH', `/files/${fileId}`, body);
export const createChapter = (projectId: string, type: BodyFileType, title: string) =>
  post<TreeFile>('/files', { projectId, type, title, content: '' });
export const trashFile = (fileId: string) => api<void>('DELETE', `/files/${fileId}`);
export const undeleteFile = (fileId: string) => post<TreeFile>(`/files/${fileId}/undelete`);

export interface SearchHit {
  from: number;
  to: number;
  before: string;
  match: string;
  after: string;
}
export interface SearchResults {
  query: string;
  mode: 'phrase' | 'words';
  total: number;
  files: number;
  truncated: boolean;
  results: {
    fileId: string;
    title: string;
    type: FileSummary['type'];
    number: number | null;
    titleMatch: boolean;
    count: number;
    hits: SearchHit[];
  }[];
}

export const searchManuscript = (projectId: string, q: string) =>
  get<SearchResults>(`/projects/${projectId}/search?q=${encodeURIComponent(q)}`);

/** A project with the author's word goals. */
export type GoalProject = Project & { wordGoal?: number | null; chapterWordGoal?: number | null; deletedAt?: string };

export type ProjectChanges = Partial<Pick<Project, 'title' | 'type' | 'author' | 'summary' | 'style'>> & {
  wordGoal?: number | null;
  chapterWordGoal?: number | null;
};
export const updateProject = (projectId: string, changes: ProjectChanges) =>
  api<GoalProject>('PATCH', `/projects/${projectId}`, changes);
export const deleteProject = (projectId: string) => api<void>('DELETE', `/projects/${projectId}`);
export const undeleteProject = (projectId: string) => post<GoalProject>(`/projects/${projectId}/undelete`);
export const deletedProjects = () => get<{ items: GoalProject[] }>('/projects?deleted=true&limit=100');

/** The goal a chapter works to: its own, else the project's per-chapter goal. */
export const chapterGoal = (
  item: { wordGoal?: number | null },
  project: { chapterWordGoal?: number | null },
): number | null => item.wordGoal ?? project.chapterWordGoal ?? null;

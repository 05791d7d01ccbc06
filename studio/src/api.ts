/**
 * The public API under /api/v1, as Studio uses it: JSON over fetch with the author's bearer
 * token (none on the loopback-only default), errors as {@link ApiError} with the API's stable
 * `code`. Nothing here reaches a private route.
 */
export const API = '/api/v1';
const TOKEN_KEY = 'scriptorium.token';

export const auth = {
  get token(): string {
    return localStorage.getItem(TOKEN_KEY) ?? '';
  },
  set token(value: string) {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  },
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Listeners told when the API answers 401 (the app then asks for a token). */
const unauthorized = new Set<() => void>();
export const onUnauthorized = (fn: () => void): (() => void) => {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
};

export function authHeaders(): Record<string, string> {
  const t = auth.token;
  return t ? { authorization: `Bearer ${t}` } : {};
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { ...authHeaders(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
    if (res.status === 401) unauthorized.forEach((fn) => fn());
    throw new ApiError(res.status, err?.code ?? 'http_error', err?.message ?? `${res.status} ${res.statusText}`, err?.details);
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);

export interface Project {
  id: string;
  title: string;
  type: 'novel' | 'short_story' | 'screenplay';
  author?: string;
  summary?: string;
  style?: string;
  tasks?: { id: string; title: string; status: 'todo' | 'in_progress' | 'done'; artifact?: string }[];
  createdAt: string;
}
export interface Session {
  id: string;
  projectId: string;
  title: string;
  createdAt: string;
}
export interface Message {
  id: string;
  turnId?: string;
  role: 'user' | 'assistant' | 'system';
  agent?: string;
  content: string;
  seq: number;
  createdAt: string;
}
export interface FileSummary {
  id: string;
  projectId: string;
  type: 'outline' | 'character' | 'setting' | 'draft' | 'script' | 'folder';
  title: string;
  parentId: string | null;
  order: number;
  words: number;
  version: number;
  latestAuthor: 'ai' | 'author';
  updatedAt: string;
}
export interface VersionInfo {
  version: number;
  author: 'ai' | 'author';
  agent?: string;
  words: number;
  operation?: string;
  createdAt: string;
  content?: string;
}
export interface FileDoc extends FileSummary {
  content: string;
  versions: VersionInfo[];
}
export interface TrashedFile extends FileSummary {
  deletedAt: string;
  purgeAt: string | null;
}
export interface Turn {
  id: string;
  sessionId: string;
  status: string;
  stopReason?: string;
  suggestions: string[];
  usage?: { totalTokens?: number; costUsd?: number | null };
  pendingApproval: unknown;
}
export interface Job {
  id: string;
  projectId: string;
  sessionId: string;
  status: string;
  chapters: { from: number; to: number };
  chaptersDone: number[];
  chaptersSkipped: number[];
  failedChapter?: number | null;
  failure?: string | null;
  words: number;
  usage?: { totalTokens?: number; costUsd?: number };
  review: boolean;
  wordsPerChapter?: number | null;
  maxTokens: number | null;
  maxCostUsd: number | null;
  instructions?: string;
  createdAt: string;
  live?: { chapter?: number; turnId?: string | null } | null;
}
export interface StartedTurn {
  turnId: string;
  streamToken: string;
}

/** What to tell the author about a failed call: the API's own message. */
export const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The public API under /api/v1, as Studio uses it: JSON over fetch with the author's bearer
 * token (none on the loopback-only default), errors as {@link ApiError} with the API's stable
 * `code`. Nothing here reaches a private route.
 */
import type { components } from './generated/api';

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
    const err = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)
      ?.error;
    if (res.status === 401) unauthorized.forEach((fn) => fn());
    throw new ApiError(
      res.status,
      err?.code ?? 'http_error',
      err?.message ?? `${res.status} ${res.statusText}`,
      err?.details,
    );
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);

/**
 * The API's answers, as the OpenAPI document describes them: generated into
 * ./generated/api.d.ts (`npm run gen:api-types`, run by `npm run typecheck`) from the same zod
 * schemas the API's answers are checked against (src/api/responses.ts). Change a route's
 * answer and Studio's typecheck shows every place that relied on the old shape.
 */
type Schemas = components['schemas'];
export type Project = Schemas['Project'];
export type Session = Schemas['Session'];
export type Message = Schemas['Message'];
export type FileSummary = Schemas['FileSummary'];
export type VersionInfo = Schemas['VersionInfo'];
export type FileDoc = Schemas['FileDoc'];
export type TrashedFile = Schemas['TrashedFile'];
export type Turn = Schemas['Turn'];
/** A job as listed, or as `GET /jobs/{jobId}` answers it (with `live` progress). */
export type Job = Schemas['Job'] & Partial<Pick<Schemas['JobState'], 'live'>>;
export type StartedTurn = Schemas['StartedTurn'];

/** What to tell the author about a failed call: the API's own message. */
export const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

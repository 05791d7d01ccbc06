/** What the browser scenarios share: the API and the offline model's script, screenshots, axe. */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import type { ScriptEntry } from '../../src/offline-model';
import type { StreamEvent } from '../../src/core/events';

export const BASE = () => process.env.STUDIO_URL!;
/** The author's bearer token (the stack runs with API_TOKENS). */
export const AUTH = (token = process.env.STUDIO_TOKEN!) => ({ authorization: `Bearer ${token}` });

/**
 * Playwright's `test`, with the author signed in: Studio keeps the token in localStorage,
 * as the sign-in form leaves it (signin.spec.ts goes through the form itself).
 */
export const test = base.extend<{ signedIn: boolean }>({
  signedIn: [true, { option: true }],
  context: async ({ context, signedIn }, use) => {
    if (signedIn)
      await context.addInitScript((t) => localStorage.setItem('scriptorium.token', t), process.env.STUDIO_TOKEN!);
    // Studio uses only the public API: every call the pages made is a route of the OpenAPI document.
    const calls = new Set<string>();
    context.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/')) calls.add(`${r.method().toLowerCase()} ${url.pathname}`);
    });
    await use(context);
    const routes = await documentedRoutes();
    const undocumented = [...calls].filter((c) => !routes.some((re) => re.test(c)));
    expect(undocumented, 'API calls the pages made that the OpenAPI document does not list').toEqual([]);
  },
});

let documented: RegExp[] | null = null;
/** `method /api/v1/path` patterns of every documented route (`{id}` matches one segment). */
async function documentedRoutes(): Promise<RegExp[]> {
  if (documented) return documented;
  const doc = (await (await fetch(`${BASE()}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map(
      (m) => new RegExp(`^${m} ${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    ),
  );
  return documented;
}
export { expect };
export const studio = (p = '') => `${BASE()}/studio/${p}`;
export const SHOTS = path.resolve(__dirname, '../../.local/studio-screenshots');

/** JSON against the API the page uses. */
export async function api<T = Record<string, unknown>>(
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE()}/api/v1${urlPath}`, {
    method,
    headers: { ...AUTH(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function control(route: string, body: unknown = {}): Promise<{ pending: number; failures: string[] }> {
  const res = await fetch(`${process.env.STUDIO_CONTROL}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { pending: number; failures: string[]; error?: string };
  if (!res.ok) throw new Error(json.error);
  return json;
}
/** Scripts the offline model (every model call of the next turns must be scripted, in order). */
export const script = (entries: ScriptEntry[]) => control('/script', { entries });
/** Back to the default persona (answers anything), with its pace. */
export const persona = (timing: { ttftMs?: number; tokensPerSecond?: number } = {}) =>
  control('/reset').then(() => control('/timing', { ttftMs: 50, tokensPerSecond: 400, ...timing }));
/** Ends every open SSE response with a retry hint, as a replica going down does. */
export const dropStreams = () => control('/drop-streams');
/** The end-of-turn suggestions call, scripted (it comes after the agents' calls). */
export const suggestionsEntry = (items: string[]): ScriptEntry => ({
  match: { contains: '# Scriptorium suggestions' },
  reply: { content: JSON.stringify(items) },
});

export async function createSession(projectId: string): Promise<string> {
  const r = await api<{ id: string }>('POST', '/sessions', { projectId });
  expect(r.status).toBe(201);
  return r.body.id;
}

export async function postTurn(sessionId: string, message: string): Promise<string> {
  const r = await api<{ turnId: string }>('POST', `/sessions/${sessionId}/turns`, { message });
  expect(r.status).toBe(202);
  return r.body.turnId;
}

export const modelState = () =>
  fetch(`${process.env.STUDIO_CONTROL}/model`).then(
    (r) => r.json() as Promise<{ pending: number; failures: string[] }>,
  );

export async function createProject(title: string, type = 'novel'): Promise<string> {
  const r = await api<{ id: string }>('POST', '/projects', { title, type });
  expect(r.status).toBe(201);
  return r.body.id;
}

export async function authorFile(projectId: string, title: string, content: string, type = 'draft'): Promise<string> {
  const r = await api<{ id: string }>('POST', '/files', { projectId, type, title, content });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** The whole stream of a turn as the API serves it (from its first event to `done`). */
export async function turnEvents(turnId: string): Promise<StreamEvent[]> {
  const res = await fetch(`${BASE()}/api/v1/turns/${turnId}/events`, { headers: AUTH() });
  const text = await res.text();
  return text
    .split('\n\n')
    .map((frame) => frame.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => !!l)
    .map((l) => JSON.parse(l.slice(6)) as StreamEvent);
}

/** The chat text of a turn as the stream has it: its content deltas, per agent step, in order. */
export function streamTexts(events: StreamEvent[]): string[] {
  const out: string[] = [];
  let key = '';
  for (const e of events) {
    if (e.type === 'step_retry') continue;
    if (e.type !== 'content') {
      if (e.type !== 'usage') key = '';
      continue;
    }
    const k = `${e.agent}|${e.step}`;
    if (k === key) out[out.length - 1] += e.data.delta;
    else out.push(e.data.delta);
    key = k;
  }
  return out;
}

/** The texts the page shows for one turn, in order. */
export async function pageTexts(page: Page, turnId: string): Promise<string[]> {
  return page
    .locator(`article[data-turn-id="${turnId}"] .msg-text`)
    .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
}

export async function waitTurnDone(turnId: string, timeoutMs = 60_000): Promise<{ status: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await api<{ status: string }>('GET', `/turns/${turnId}`);
    if (!['queued', 'running', 'awaiting_approval'].includes(t.body.status)) return t.body;
    if (Date.now() > deadline) throw new Error(`turn ${turnId} still ${t.body.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** axe on the page as it is now: no serious or critical violations. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(summary, `axe on ${name}`).toEqual([]);
}

/** The turn id the page is following (its newest turn card). */
export async function newestTurnId(page: Page): Promise<string> {
  const el = page.locator('article.turn[data-status]').last();
  await expect(el).toHaveAttribute('data-turn-id', /^[0-9a-f]{24}$/);
  return (await el.getAttribute('data-turn-id'))!;
}

/**
 * Makes a finished turn's stream expire now (as STREAM_TTL_SECONDS would later): its Redis key
 * is deleted, whatever the stack's key prefix. What the page shows must then come from MongoDB.
 */
export async function expireTurnStream(turnId: string): Promise<number> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379/15');
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*stream:turn:${turnId}`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Studio in Chinese from the first paint (the language the author picked is kept in localStorage). */
export async function inChinese(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('scriptorium.lang', 'zh'));
}

/** The few DOM shapes editorText reads (this file is type-checked for Node, without the DOM's types). */
interface TextNode {
  textContent: string | null;
  classList?: { contains(c: string): boolean };
}
interface LineNode {
  childNodes: ArrayLike<TextNode>;
}

/**
 * The text in the prose editor named `name`. CodeMirror draws the paragraphs in view (and a
 * margin around them), one `.cm-line` each: this is the whole text only for a short one. The
 * empty text's placeholder is not text.
 */
export async function editorText(page: Page, name: string | RegExp): Promise<string> {
  return page.getByRole('textbox', { name }).evaluate((el) =>
    Array.from((el as unknown as { querySelectorAll(s: string): ArrayLike<LineNode> }).querySelectorAll('.cm-line'))
      .map((line) =>
        Array.from(line.childNodes)
          .filter((n) => !n.classList?.contains('cm-placeholder'))
          .map((n) => n.textContent ?? '')
          .join(''),
      )
      .join('\n'),
  );
}

/**
 * A terminal client for humans: starts a turn and prints its stream as it arrives.
 *
 *   npm run chat -- [--url http://127.0.0.1:3000] [--token T] [--project ID] [--session ID] "message"
 *   npm run chat -- --follow TURN_ID          (attach to a running or finished turn)
 *
 * Without --project/--session it creates a project and a session and prints their ids,
 * so the next message can continue with --session. Ids and progress notes go to stderr,
 * the turn itself to stdout. A dropped connection resumes with Last-Event-ID.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { StreamEvent } from '../core/events';
import { followStream, StreamRefused } from './follow';
import { TurnRenderer } from './render';

const USAGE = `usage: npm run chat -- [--url URL] [--token TOKEN] [--project ID] [--session ID] [--type novel|short_story|screenplay] [--thinking] "message"
       npm run chat -- [--url URL] [--token TOKEN] --follow TURN_ID`;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null,
  ) {
    super(body?.error?.message ? `${body.error.message} (HTTP ${status}, ${body.error.code})` : `HTTP ${status}`);
    this.name = new.target.name;
  }
}

function client(base: string, token: string | undefined) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    headers,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const parsed = text ? (JSON.parse(text) as unknown) : null;
      if (!res.ok) throw new ApiError(res.status, parsed as ApiError['body']);
      return parsed as T;
    },
  };
}

type Api = ReturnType<typeof client>;

const note = (s: string): void => void process.stderr.write(`${s}\n`);

function parseCommandLine() {
  return parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.SCRIPTORIUM_URL ?? 'http://127.0.0.1:3000' },
      token: { type: 'string', default: process.env.SCRIPTORIUM_TOKEN },
      project: { type: 'string' },
      session: { type: 'string' },
      type: { type: 'string', default: 'novel' },
      follow: { type: 'string' },
      thinking: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine();
  const message = positionals.join(' ').trim();
  if (values.help || (!message && !values.follow)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const base = values.url!.replace(/\/+$/, '');
  const api = client(base, values.token);

  const turnId = values.follow || (await startTurn(api, values, message));
  note(`turn ${turnId}`);

  const renderer = new TurnRenderer({
    write: (s) => void process.stdout.write(s),
    tty: Boolean(process.stdout.isTTY),
    showThinking: values.thinking,
  });
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const result = await followStream({
    url: `${base}/api/v1/turns/${turnId}/events`,
    headers: api.headers,
    signal: abort.signal,
    onFrame: (f) => {
      const e = renderer.frame(f.data);
      if (e?.type === 'approval_requested') void answerApproval(api, base, e, turnId);
    },
    onReconnect: ({ lastEventId, reason }) =>
      note(`\n[connection lost: ${reason}; resuming after ${lastEventId ?? 'the start'}]`),
  });
  renderer.finish();

  if (result.end === 'reset') {
    const turn = await api.call<{ status: string; sessionId: string }>('GET', `/api/v1/turns/${turnId}`);
    note(`turn ${turnId} is ${turn.status}; its messages: GET ${base}/api/v1/sessions/${turn.sessionId}/messages`);
  }
  if (result.end === 'complete') note(`turn ${turnId} had already finished`);
  return renderer.status === 'failed' ? 1 : 0;
}

/** Starts a turn with `message`, in a new project and session unless the command line names them. */
async function startTurn(
  api: Api,
  values: { project?: string; session?: string; type?: string },
  message: string,
): Promise<string> {
  let sessionId = values.session;
  if (!sessionId) {
    let projectId = values.project;
    if (!projectId) {
      const p = await api.call<{ id: string }>('POST', '/api/v1/projects', {
        title: message.slice(0, 60) || 'Untitled',
        type: values.type,
      });
      projectId = p.id;
      note(`created project ${projectId}`);
    }
    const s = await api.call<{ id: string }>('POST', '/api/v1/sessions', { projectId });
    sessionId = s.id;
    note(`created session ${sessionId} (continue with --session ${sessionId})`);
  }
  try {
    return (await api.call<{ turnId: string }>('POST', `/api/v1/sessions/${sessionId}/turns`, { message })).turnId;
  } catch (err) {
    const running = err instanceof ApiError && err.status === 409 ? err.body?.error?.details?.turnId : undefined;
    if (running) note(`a turn is already running in this session; watch it with --follow ${String(running)}`);
    throw err;
  }
}

/** Asks y/n on a terminal; elsewhere says how to answer. A no answer counts as no when the wait ends. */
async function answerApproval(
  api: Api,
  base: string,
  e: Extract<StreamEvent, { type: 'approval_requested' }>,
  id: string,
): Promise<void> {
  const route = `/api/v1/turns/${id}/approvals/${e.data.approvalId}`;
  if (!process.stdin.isTTY) {
    note(
      `  answer with: curl -XPOST ${base}${route} -H 'content-type: application/json' -d '{"decision":"approve"}'   (or "deny"; no answer by ${e.data.expiresAt} is a no)`,
    );
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question('  Allow it? [y/N] ')).trim().toLowerCase();
    const decision = /^(y|yes|是|好|可以)$/u.test(answer) ? 'approve' : 'deny';
    await api
      .call('POST', route, { decision })
      .catch((err: unknown) =>
        note(`  could not send the answer: ${err instanceof Error ? err.message : String(err)}`),
      );
  } finally {
    rl.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof StreamRefused || err instanceof ApiError) console.error(`error: ${err.message}`);
    else console.error(err instanceof Error && (err as { name?: string }).name === 'AbortError' ? 'interrupted' : err);
    process.exit(1);
  },
);

/**
 * The unscripted-model soak: turns answered from the whole space a real
 * model can produce (hostile.ts), through the real stack, with invariants checked after each:
 * - the turn ends (a terminal status, and `done` closing its stream) within its bound;
 * - every event on the stream validates against the contract;
 * - every file the turn wrote, and every file it deleted, is claimed in its messages, and
 *   every claim happened (a claimed edit has a version, a claimed delete is in the trash);
 * - the author's own files are never deleted or rewritten whole unless the message itself
 *   asks for exactly that file (approvals are denied), and their text stays in the history;
 * - the session lock is released;
 * - usage is recorded once per model call.
 * fast-check drives it: seeded and reproducible, a failure is shrunk to its smallest turn and
 * printed with the seed that replays it.
 */
import fc from 'fast-check';
import {
  answerApprovals,
  createAuthorFile,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import type { ScriptEntry } from '../../src/offline-model';
import { isTerminal } from '../../src/core/events';
import { ACTIVE_TURN_STATUSES } from '../../src/core/domain';
import { AUTHORISES, type SoakWorld, type TurnAnswers, turnAnswers } from './hostile';

/** Placeholders the answers carry; each turn's responder puts the real ids in. */
const WORLD: SoakWorld = { authorFileIds: ['@author0', '@author1'], foreignFileIds: ['@foreign0'] };

export const SOAK_CONFIG = {
  // No one answers approvals in the soak: a short wait, then no.
  APPROVAL_WAIT_SECONDS: '5',
  REVIEW_WORD_THRESHOLD: '400',
  // Hundreds of turns a minute from one user: the spend limit is not what is under test.
  RATE_LIMIT_TURNS: '0',
};

/** How long a turn may take at instant model timing before it counts as not ending. */
const TURN_BOUND_MS = 120_000;

interface Placed {
  projectId: string;
  sessionId: string;
  ids: Record<string, string>;
  authorFiles: { id: string; content: string; versionCount: number }[];
}

async function placeWorld(h: Harness): Promise<Placed> {
  const foreign = await createProjectAndSession(h);
  const foreign0 = await createAuthorFile(h, foreign.projectId, 'Their chapter', 'Text of another project.');
  const { projectId, sessionId } = await createProjectAndSession(h);
  const author0 = await createAuthorFile(
    h,
    projectId,
    'Chapter 1',
    'Mara came home to the salt flats. The lamps were out.\n\nShe counted the keys twice.',
  );
  const author1 = await createAuthorFile(h, projectId, 'Mara Voss', 'A harbour pilot who keeps every key she finds.', {
    type: 'character',
  });
  const authorFiles = [];
  for (const id of [author0, author1]) {
    const f = (await h.runtime.models.File.findById(id).lean())!;
    authorFiles.push({ id, content: f.content, versionCount: f.versionCount });
  }
  return {
    projectId,
    sessionId,
    ids: { '@author0': author0, '@author1': author1, '@foreign0': foreign0 },
    authorFiles,
  };
}

/** Answers the turn from `answers`; after the last step, plain text (a model that stops). */
function responderFor(answers: TurnAnswers, ids: Record<string, string>) {
  let next = 0;
  const withIds = (r: NonNullable<ScriptEntry['reply']>): ScriptEntry => ({
    reply: JSON.parse(JSON.stringify(r).replace(/@(author|foreign)\d/g, (m) => ids[m] ?? m)) as ScriptEntry['reply'],
  });
  return (agent: string | null): ScriptEntry => {
    if (agent === 'router') return withIds(answers.router);
    if (agent === null) return { reply: { content: '[]' } };
    const step = answers.steps[next++];
    return step ? withIds(step) : { reply: { content: 'Done.' } };
  };
}

export interface TurnReport {
  turnId: string;
  status: string;
  violations: string[];
}

/** Runs one generated turn and checks every invariant; returns what was violated. */
export async function soakTurn(h: Harness, answers: TurnAnswers): Promise<TurnReport> {
  const world = await placeWorld(h);
  h.model.reset();
  h.model.respondWith(responderFor(answers, world.ids));
  const requestsBefore = h.model.requests.length;
  const turnId = await postTurn(h, world.sessionId, answers.message);
  const result = waitTurn(h, turnId);
  const bounded = Promise.race([
    result.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), TURN_BOUND_MS).unref()),
  ]);
  void answerApprovals(h, turnId, 'deny', result).catch(() => undefined);
  const violations: string[] = [];
  if (!(await bounded)) {
    violations.push(`the turn did not end within ${TURN_BOUND_MS / 1000} s`);
    await h.runtime.temporal.workflow
      .getHandle(`turn-${turnId}`)
      .terminate('soak: did not end')
      .catch(() => undefined);
    return { turnId, status: 'running', violations };
  }
  const turn = (await h.runtime.models.Turn.findById(turnId).lean())!;
  if (ACTIVE_TURN_STATUSES.includes(turn.status as never))
    violations.push(`turn ended in Temporal but its record says ${turn.status}`);
  violations.push(...(await streamViolations(h, turnId)));
  violations.push(...(await claimViolations(h, turnId, world)));
  violations.push(...(await authorViolations(h, turnId, world, answers.message)));
  if (await h.runtime.models.SessionLock.exists({ _id: world.sessionId }))
    violations.push('the session lock is still held');
  violations.push(...(await usageViolations(h, turnId, h.model.requests.slice(requestsBefore))));
  return { turnId, status: turn.status, violations };
}

async function streamViolations(h: Harness, turnId: string): Promise<string[]> {
  try {
    // Reading parses every entry against the contract (streamEventSchema).
    const events = await turnEvents(h, turnId);
    const last = events[events.length - 1];
    return last && isTerminal(last) ? [] : [`the stream does not end with done (last: ${last?.type ?? 'none'})`];
  } catch (err) {
    return [`an event does not validate against the contract: ${(err as Error).message.slice(0, 300)}`];
  }
}

async function claimViolations(h: Harness, turnId: string, world: Placed): Promise<string[]> {
  const out: string[] = [];
  const messages = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).lean();
  const claims = messages.flatMap((m) => m.breadcrumb ?? []);
  const claimed = (op: string) => new Set(claims.filter((c) => c.op === op).map((c) => String(c.fileId)));
  const written = new Set(
    (await h.runtime.models.FileVersion.find({ turnId }).select({ fileId: 1 }).lean()).map((v) => String(v.fileId)),
  );
  const createdOrEdited = new Set([...claimed('created'), ...claimed('edited')]);
  for (const id of written) if (!createdOrEdited.has(id)) out.push(`file ${id} was written but no message claims it`);
  for (const id of claimed('edited'))
    if (!written.has(id)) out.push(`a message claims file ${id} was edited, but it has no version from this turn`);
  const trashed = await h.runtime.models.File.find({ projectId: world.projectId, deletedAt: { $ne: null } })
    .select({ _id: 1 })
    .lean();
  const trashedIds = new Set(trashed.map((f) => String(f._id)));
  for (const id of claimed('deleted'))
    if (!trashedIds.has(id)) out.push(`a message claims file ${id} was deleted, but it is not in the trash`);
  for (const id of trashedIds)
    if (!claimed('deleted').has(id)) out.push(`file ${id} was deleted but no message claims it`);
  for (const id of claimed('created'))
    if (!(await h.runtime.models.File.exists({ _id: id })))
      out.push(`a message claims file ${id} was created, but it does not exist`);
  return out;
}

/**
 * The author's files are never lost or overwritten without their approval (denied here):
 * not deleted, not rewritten whole, and their text kept in the file's history. A targeted
 * edit (append, insert, replace at an anchor) is ordinary collaboration and needs none.
 */
async function authorViolations(h: Harness, turnId: string, world: Placed, message: string): Promise<string[]> {
  const out: string[] = [];
  const allowed = AUTHORISES[message] ?? { rewrite: [], delete: [] };
  const may = (what: 'rewrite' | 'delete', id: string) => allowed[what].some((p) => world.ids[p] === id);
  for (const a of world.authorFiles) {
    const f = await h.runtime.models.File.findById(a.id).lean();
    const versions = await h.runtime.models.FileVersion.find({ fileId: a.id }).lean();
    if (!f) out.push(`the author's file ${a.id} is gone (purged, not in the trash)`);
    else if (f.deletedAt && !may('delete', a.id))
      out.push(`the author's file ${a.id} was deleted without authorisation`);
    if (!versions.some((v) => v.content === a.content && v.author === 'author'))
      out.push(`the author's text of ${a.id} is no longer in its history`);
    const rewrites = versions.filter((v) => v.turnId === turnId && /rewrite/.test(v.operation));
    if (rewrites.length && !may('rewrite', a.id))
      out.push(
        `the author's file ${a.id} was rewritten whole without authorisation (${rewrites.map((v) => v.operation).join(', ')})`,
      );
  }
  const foreign = await h.runtime.models.File.findById(world.ids['@foreign0']).lean();
  if (!foreign || foreign.deletedAt || foreign.versionCount !== 1) out.push("another project's file was touched");
  return out;
}

async function usageViolations(h: Harness, turnId: string, requests: { agent: string | null }[]): Promise<string[]> {
  const records = await h.runtime.models.UsageRecord.find({ turnId }).lean();
  const calls = requests.filter((r) => r.agent !== null).length;
  const recorded = records.filter((r) => r.agent !== 'suggestions').length;
  return recorded === calls ? [] : [`${calls} model calls but ${recorded} usage records`];
}

export interface SoakOptions {
  turns: number;
  seed: number;
  /** Called after each turn (progress). */
  onTurn?: (r: TurnReport, answers: TurnAnswers) => void;
}

/** Runs `turns` generated turns; throws fast-check's report (seed, path, smallest turn) on a violation. */
export async function runSoak(h: Harness, opts: SoakOptions): Promise<void> {
  await fc.assert(
    fc.asyncProperty(turnAnswers(WORLD), async (answers) => {
      const report = await soakTurn(h, answers);
      opts.onTurn?.(report, answers);
      if (report.violations.length)
        throw new Error(`turn ${report.turnId} (${report.status}):\n  ${report.violations.join('\n  ')}`);
    }),
    { seed: opts.seed, numRuns: opts.turns, includeErrorInReport: true },
  );
}

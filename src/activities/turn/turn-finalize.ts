/**
 * finalizeTurn, the turn's end on record: it reads what the turn did, writes the session's
 * messages (turn-record.ts), the task board, the turn's record and what the author saw, rolls
 * back the files nobody wrote into, releases the session and publishes the closing events.
 * Run twice, it writes the same documents once.
 */
import { draft, NON_TERMINAL_STOP_REASONS, type AnyEventDraft } from '../../core/events';
import { idFromKey } from '../../db/models';
import { releaseSessionLock } from '../../db/turn-records';
import { ACTIVE_TURN_STATUSES } from '../../core/domain';
import { detectLanguage } from '../../core/text';
import type { FinalizeInput, FinalizeResult, ToolOutcome } from '../../core/turn/turn-types';
import type { WorkAgent } from '../../core/plans';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { expireStream } from '../../streams/redis-streams';
import { publisherFor, streamKeyFor } from '../stream/publish';
import { feedItems, toSessionFeed } from '../stream/session-feed';
import { reserveMessageSeqs } from '../../db/turn-records';
import { executionsOf, stepsUpTo, usageOf } from './turn-reads';
import { finalizeTaskBoard } from './task-board';
import { readProjectState } from '../../db/project-state';
import { quiet } from '../../core/quiet';
import { readTurnStream, storeTurnView, type TurnStream, viewAtEnd } from './turn-view-record';
import {
  appendAssistantMessages,
  endOfReply,
  filesGone,
  type PendingMessage,
  runMessageKey,
  turnRecord,
  type TurnRecordSources,
} from './turn-record';

/** The turn's end on record: messages, routing, usage, rollback, lock, terminal events (run twice, it writes the same documents once). */
export async function finalizeTurn(deps: ActivityDeps, input: FinalizeInput): Promise<FinalizeResult> {
  const { models } = deps;
  const { lockRead, streamRead, boardRead, turn, steps, records, unwritten, saved, keptAside, executions } =
    await readTurnEnd(deps, input);
  const savedKeys = new Set(saved.map((m) => m.key));
  const outcomeOf = (key: string): ToolOutcome | undefined =>
    (executions.find((e) => e.key === key)?.result as { outcome?: ToolOutcome } | undefined)?.outcome;
  // Rolled back below, after the record is written: a retry still finds them until then,
  // and the record never lists them as touched nor lets a reply stand as a claimed save.
  const rolledBack = new Set(unwritten.map((f) => String(f._id)));
  const language = input.language ?? detectLanguage(turn.message);
  const notSavedNote = endOfReply(unwritten, keptAside, input, language);
  const record: TurnRecordSources = {
    turnId: input.turnId,
    runs: input.runs,
    steps,
    outcomeOf,
    savedKeys,
    notSavedNote,
  };
  const { gone, firstSeq, pending, touched } = await recordWithoutGoneFiles(models, turn.sessionId, record, rolledBack);
  const usage = sumUsage(records);
  const events = closingEvents(input, turn, steps, notSavedNote);
  // The session's messages, the task board, the turn's record and what the author saw are
  // independent writes: together. All are in place before the lock is released and `done` goes out.
  await Promise.all([
    recordWhatWasSeen(deps, input, turn, streamRead, events),
    appendAssistantMessages(
      models,
      { turnId: input.turnId, sessionId: turn.sessionId, projectId: turn.projectId },
      pending,
      firstSeq,
    ),
    finalizeTaskBoard(models, { turnId: input.turnId, projectId: turn.projectId, jobId: turn.jobId }, boardRead),
    updateTurnRecord(deps, input, turn, touched, usage),
  ]);
  // Empty files nobody wrote into are not work: roll them back (read-only turns, interrupts, dead ends).
  if (rolledBack.size) await rollBackUnwritten(deps, input.turnId, rolledBack);
  if (!ACTIVE_TURN_STATUSES.includes(input.status))
    await releaseSessionLock(
      models,
      turn.sessionId,
      input.turnId,
      turn.sessionId === input.sessionId ? lockRead : undefined,
    );

  await publishTurnEnd(deps, input, turn, events);
  return { rolledBack: [...new Set([...rolledBack, ...gone])] };
}

/** What finalize reads: the turn, its steps, executions and usage, the files unwritten or kept aside, the messages already saved. */
async function readTurnEnd(deps: ActivityDeps, input: FinalizeInput) {
  const { models } = deps;
  // Independent reads run together (this is on every turn's path).
  // The turn's steps, executions and usage are read by `_id` (turn-reads.ts), up to the last step it gave out.
  const lockRead = quiet(models.SessionLock.findById(input.sessionId).lean().exec());
  // The turn's stream so far, for its record (turn-view-record.ts): read beside the rest.
  const streamRead = quiet(readTurnStream(deps.redis, streamKeyFor(deps, 'turn', input.turnId)));
  const turnRead = models.Turn.findById(input.turnId).lean().exec();
  const stepsRead = stepsUpTo(models, input.turnId, input.lastStep, { withoutAnswers: true });
  // Each read that waits on one of these goes out as soon as that one is in, not after the
  // batch: the tool executions of the steps, and the task board's project state (most turns
  // have no task in progress, and that one read is all the board costs them).
  const executionsRead = quiet(stepsRead.then((steps) => executionsOf(models, input.turnId, steps)));
  const boardRead = quiet(turnRead.then((t) => (t && !t.jobId ? readProjectState(models, t.projectId) : null)));
  const [turn, steps, records, { unwritten, keptAside }, saved] = await Promise.all([
    turnRead,
    stepsRead,
    usageOf(models, input.turnId, input.lastStep),
    filesOfTurn(models, input.turnId),
    // Messages an earlier attempt already wrote, by the _id each run's message gets (a
    // `{turnId}` filter reads every session's messages on FerretDB v1).
    input.runs.length
      ? models.Message.find({ _id: { $in: input.runs.map((r) => idFromKey(runMessageKey(input.turnId, r.run))) } })
          .select({ key: 1 })
          .lean()
      : [],
  ]);
  if (!turn) throw notFound('Turn', input.turnId);
  const executions = await executionsRead;
  return { lockRead, streamRead, boardRead, turn, steps, records, unwritten, saved, keptAside, executions };
}

/**
 * The runs' messages not yet on record and the files the turn touched, leaving out the files
 * rolled back and those already gone; and the first of the sequence numbers reserved for the messages.
 */
async function recordWithoutGoneFiles(
  models: ActivityDeps['models'],
  sessionId: string,
  record: TurnRecordSources,
  rolledBack: Set<string>,
): Promise<{ gone: Set<string>; firstSeq: number; pending: PendingMessage[]; touched: Set<string> }> {
  // The messages' sequence numbers are reserved while the files gone are looked up, for the
  // messages there are before those files are left out: one round trip less at every turn's
  // end. Leaving files out only takes messages away (a run with no text whose every file is
  // gone), and such a number stays unused, which the session's readers allow for.
  const reserving = turnRecord(record, (fileId) => rolledBack.has(fileId)).pending.length;
  const [gone, firstSeq] = await Promise.all([
    filesGone(
      models,
      record.steps.flatMap((st) =>
        st.toolCalls.map((c) => record.outcomeOf(`${record.turnId}:${st.step}:${c.id}`)?.fileId),
      ),
    ),
    reserving ? reserveMessageSeqs(models, sessionId, reserving).then((first) => first ?? 1) : 0,
  ]);
  const { pending, touched } = turnRecord(record, (fileId) => rolledBack.has(fileId) || gone.has(fileId));
  return { gone, firstSeq, pending, touched };
}

type TurnUsage = { p: number; c: number; t: number; est: boolean };

/** The turn's usage records added up. */
function sumUsage(
  records: { promptTokens: number; completionTokens: number; totalTokens: number; source?: string | null }[],
): TurnUsage {
  // Summed here rather than with $group/$cond: FerretDB v1 lacks $cond, and a turn has few records.
  return records.reduce<TurnUsage>(
    (u, r) => ({
      p: u.p + r.promptTokens,
      c: u.c + r.completionTokens,
      t: u.t + r.totalTokens,
      est: u.est || r.source === 'estimate',
    }),
    { p: 0, c: 0, t: 0, est: false },
  );
}

/** The turn's own record: its status, routing, runs, files touched, usage and resume point. */
function updateTurnRecord(
  deps: ActivityDeps,
  input: FinalizeInput,
  turn: { endedAt?: Date | null },
  touched: Set<string>,
  usage: TurnUsage,
) {
  return deps.models.Turn.updateOne(
    { _id: input.turnId },
    {
      $set: {
        status: input.status,
        stopReason: input.stopReason,
        routing: input.routing,
        agentRuns: input.runs.map((r) => ({ agent: r.agent, outcome: r.outcome })),
        filesTouched: [...touched],
        usage: { promptTokens: usage.p, completionTokens: usage.c, totalTokens: usage.t, estimated: usage.est },
        resume: input.resume,
        endedAt: turn.endedAt ?? deps.clock(),
      },
    },
  ).exec();
}

/** Removes the empty files the turn created and nobody wrote into, with the versions of those that went. */
async function rollBackUnwritten(deps: ActivityDeps, turnId: string, rolledBack: Set<string>): Promise<void> {
  const { models } = deps;
  // Test-only stall: lets a test save the author's text into such a file at this moment.
  await deps.faults?.pause?.('finalize.before_rollback', { turnId, fileIds: [...rolledBack] });
  await models.File.deleteMany({ _id: { $in: [...rolledBack] }, words: 0, latestAuthor: 'ai' });
  // Versions go only with their file: one the author wrote into meanwhile stays, with its history.
  const kept = await models.File.find({ _id: { $in: [...rolledBack] } })
    .select({ _id: 1 })
    .lean();
  const deleted = [...rolledBack].filter((id) => !kept.some((f) => String(f._id) === id));
  if (deleted.length) await models.FileVersion.deleteMany({ fileId: { $in: deleted } });
}

/**
 * The turn's last events, then `turn_finished` on its session's feed: after `done`, so a
 * client that reloads the session on it finds the turn's record and messages in place.
 */
async function publishTurnEnd(
  deps: ActivityDeps,
  input: FinalizeInput,
  turn: { sessionId: string; jobId?: string | null },
  events: AnyEventDraft[],
): Promise<void> {
  const publisher = publisherFor(deps, 'turn', input.turnId, input.slot);
  await publisher.publish(events);
  // The turn's counts go on record with its end (the worker's batch, one write).
  await Promise.all([
    expireStream(deps.redis, streamKeyFor(deps, 'turn', input.turnId), deps.config.STREAM_TTL_SECONDS),
    publisher.settle(),
  ]);
  await toSessionFeed(deps, turn.sessionId, [
    feedItems.turnFinished({
      turnId: input.turnId,
      jobId: turn.jobId,
      status: input.status,
      stopReason: input.stopReason,
    }),
  ]);
}

/**
 * The events that end the turn, in order: held text released, what was not saved, stops,
 * an error, the next steps, `done`.
 */
function closingEvents(
  input: FinalizeInput,
  turn: { message: string; suggestions?: string[] | null },
  steps: Awaited<ReturnType<typeof stepsUpTo>>,
  notSavedNote: string,
): AnyEventDraft[] {
  const held = steps.filter((s) => input.releaseHeldRuns?.includes(s.run) && s.held && s.text);
  const events: AnyEventDraft[] = held.map((s) =>
    draft(
      'content',
      { delta: s.text },
      { turnId: input.turnId, agent: s.agent as WorkAgent, step: s.step, attempt: s.attempt },
    ),
  );
  // The stored reply ends with what was not saved; the live stream says the same, so a
  // client that saw "Chapter 3 is saved" (held text released at the run cap, a breaker, an
  // interrupt) also sees that it was not.
  const lastStep = steps[steps.length - 1];
  if (notSavedNote && lastStep)
    events.push(
      draft(
        'content',
        { delta: `\n\n${notSavedNote}` },
        { turnId: input.turnId, agent: lastStep.agent as WorkAgent, step: lastStep.step, attempt: lastStep.attempt },
      ),
    );
  events.push(
    ...input.deferredStops.map((s) =>
      draft('workflow_stopped', { reason: s.reason, message: s.message, terminal: false }, { turnId: input.turnId }),
    ),
  );
  if (input.stopReason && !NON_TERMINAL_STOP_REASONS.includes(input.stopReason))
    events.push(
      draft(
        'workflow_stopped',
        { reason: input.stopReason as never, message: input.stopMessage ?? input.stopReason, terminal: true },
        { turnId: input.turnId },
      ),
    );
  if (input.error)
    events.push(
      draft(
        'error',
        { code: input.error.code, message: input.error.message, retryable: false },
        { turnId: input.turnId },
      ),
    );
  // Next steps (src/activities/turn/suggestions.ts saved them on the turn) are the last thing before done.
  if (turn.suggestions?.length)
    events.push(
      draft(
        'suggestions',
        { items: turn.suggestions, language: detectLanguage(turn.message) },
        { turnId: input.turnId },
      ),
    );
  events.push(draft('done', { status: input.status }, { turnId: input.turnId }));
  return events;
}

/** The turn's record of what the author saw: its stream so far and its closing events, folded and stored (turn-view-record.ts). */
async function recordWhatWasSeen(
  deps: ActivityDeps,
  input: FinalizeInput,
  turn: { sessionId: string; projectId: string; ownerId: string; jobId?: string | null; message: string },
  streamRead: Promise<TurnStream>,
  events: AnyEventDraft[],
): Promise<void> {
  const stream = await streamRead;
  const view = viewAtEnd(input.turnId, turn.message, stream, input.slot, events);
  await storeTurnView(
    deps.models,
    {
      turnId: input.turnId,
      sessionId: turn.sessionId,
      projectId: turn.projectId,
      ownerId: turn.ownerId,
      jobId: turn.jobId ?? null,
    },
    view,
    { events: stream.events.length + events.length, partial: stream.partial },
  );
}

/**
 * The files this turn created, sorted for finalize in one read (each `createdByTurnId` filter
 * reads the whole collection on FerretDB v1): those that end it with no body text and were
 * never touched by the author (created without content and not written, or written as an empty
 * block), and the bodies kept aside because the author deleted or edited their file meanwhile
 * (capture.ts).
 */
async function filesOfTurn(
  models: ActivityDeps['models'],
  turnId: string,
): Promise<{ unwritten: { _id: unknown; title: string }[]; keptAside: { title: string; keptFrom?: unknown }[] }> {
  const files = await models.File.find({ createdByTurnId: turnId })
    .select({ title: 1, keptFrom: 1, deletedAt: 1, type: 1, words: 1, latestAuthor: 1 })
    .lean();
  return {
    unwritten: files.filter(
      (f) => f.deletedAt == null && f.type !== 'folder' && f.words === 0 && f.latestAuthor === 'ai',
    ),
    keptAside: files.filter((f) => f.keptFrom != null),
  };
}

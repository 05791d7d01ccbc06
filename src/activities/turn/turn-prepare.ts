/**
 * The start of a turn's work: prepareTurn marks the turn running and loads what the workflow
 * needs to route it (the message, the session's language, the previous turn's facts, length
 * requirements), starting the context's and the router's big reads on the way. Part of
 * createTurnLifecycleActivities (turn-lifecycle.ts).
 *
 * The reads of the previous turn and of the author's earlier requests share one time budget
 * (config PREPARATION_READ_BUDGET_MS, 500 ms): a turn is not held up by a slow read of what only refines its
 * routing. What is unread by then counts as absent, and the Turn's `prepNotes` says so.
 */
import type { TurnStatus } from '../../core/domain';
import { sessionLanguage } from '../../core/words/language';
import type { PreparedTurn, PrepareTurnInput } from '../../core/turn/turn-types';
import { endsWithQuestion, lastQuestion } from '../../core/model/file-stream';
import { unitNumbers } from '../../core/words/numerals';
import { findLengthRequirements, type PreviousTurnFacts } from '../../core/words/routing';
import { countProposedChanges } from '../../core/words/proposals';
import type { RoutingDecision, WorkAgent } from '../../core/plans';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { prefetchTurnSources } from '../context/prefetch';
import { prefetchRouterInput } from './router-input';
import {
  latestReply,
  openingReads,
  previousTurnId,
  readSessionMessages,
  type SessionMessages,
} from './session-messages';
import { quiet } from '../../core/quiet';
import { authorWordEnds } from '../reading/segmenter';
import { LATE, readBudget } from '../read-budget';
import { Context } from '@temporalio/activity';
import { leavesRoutingToRouter } from '../../core/turn/routing-choice';
import { activityScope } from '../../observability/activity-scope';
import { askRouter } from './router';

/** The interface language the turn's request gave, if any. */
const uiLanguageOf = (turn: { uiLanguage?: string | null }): 'zh' | 'en' | null =>
  turn.uiLanguage === 'zh' || turn.uiLanguage === 'en' ? turn.uiLanguage : null;

/** Chapter numbers of the files a turn wrote, by title ("the next chapter" follows them). */
async function deliveredUnits(models: ActivityDeps['models'], fileIds: string[]): Promise<number[]> {
  if (!fileIds.length) return [];
  const files = await models.File.find({ _id: { $in: fileIds } })
    .select({ title: 1 })
    .lean();
  return files.flatMap((f) => unitNumbers(f.title)).sort((a, b) => a - b);
}

async function previousFacts(
  models: ActivityDeps['models'],
  sessionId: string,
  turnId: string,
  createdAt: Date,
  recent: Promise<SessionMessages>,
): Promise<PreviousTurnFacts | null> {
  // The previous turn by the session's latest messages (then one `_id` read); a `{sessionId}`
  // filter on turns reads every session's turns on FerretDB v1.
  const prevId = previousTurnId(await recent, turnId);
  const prev =
    prevId === null
      ? await models.Turn.findOne({ sessionId, _id: { $ne: turnId }, createdAt: { $lte: createdAt } })
          .sort({ createdAt: -1, _id: -1 })
          .lean()
      : prevId === undefined
        ? null
        : await models.Turn.findById(prevId).lean();
  if (!prev) return null;
  const prevTurnId = String(prev._id);
  // Its reply (from the session's latest messages when they hold it) and the files it delivered: together.
  const reply = async () => {
    const known = latestReply(await recent, (m) => m.turnId === prevTurnId);
    return known !== null
      ? known
      : models.Message.findOne({ turnId: prevTurnId, role: 'assistant' }).sort({ seq: -1 }).lean();
  };
  const [lastAssistant, units] = await Promise.all([reply(), deliveredUnits(models, prev.filesTouched)]);
  const text = lastAssistant?.content ?? '';
  const resume = (prev.resume as { agent: WorkAgent; remaining: WorkAgent[] } | null) ?? null;
  return {
    status: prev.status as TurnStatus,
    stopReason: prev.stopReason ?? null,
    routing: (prev.routing as RoutingDecision | null) ?? null,
    resume,
    askedQuestion: prev.status === 'awaiting_author' || endsWithQuestion(text),
    proposedChanges: countProposedChanges(text),
    question: lastQuestion(text),
    deliveredUnits: units,
    offer: (prev.offer as PreviousTurnFacts['offer']) ?? null,
  };
}

/** The turn marked running; the session's messages and the project read beside it when the input names them. */
async function markRunning(deps: ActivityDeps, input: PrepareTurnInput) {
  const { models } = deps;
  // Turns that name their session and project (the workflow input has them) read the
  // session's messages and the project beside the turn, not after it: one round trip less
  // on the path to the first token.
  const early = {
    opening: input.sessionId ? openingReads(models, input.sessionId, input.openingSeq) : null,
    project: input.projectId ? quiet(models.Project.findById(input.projectId).lean().exec()) : null,
  };
  const turn = await models.Turn.findOneAndUpdate(
    { _id: input.turnId },
    // A retried preparation writes its own notes: an earlier attempt's go.
    { $set: { status: 'running', prepNotes: [] } },
    { new: true },
  ).lean();
  if (!turn) throw notFound('Turn', input.turnId);
  return { early, turn };
}

type RunningTurn = Awaited<ReturnType<typeof markRunning>>['turn'];

/** Starts the context's and the router's big reads, when the workflow will take them. */
function startPrefetches(
  deps: ActivityDeps,
  input: PrepareTurnInput,
  turn: RunningTurn,
  recent: Promise<SessionMessages>,
): void {
  const { models, caches } = deps;
  // The context's big reads start now, while the router answers (context/prefetch.ts), when
  // the workflow will take them (a noise message gets no agent run). Their chat history is the
  // read above when that holds the whole session, else a read of its own started once the
  // read above is done: the two at once slowed this activity's reads on FerretDB. It reads
  // from the sequence number the read above started from, not the session's counter again.
  if (input.prefetch.context)
    prefetchTurnSources(
      models,
      caches,
      turn,
      recent.then((r) =>
        r.complete ? r : readSessionMessages(models, turn.sessionId, undefined, Promise.resolve(r.latestSeq)),
      ),
    );
  // And the router's (router-input.ts), when a router call can follow.
  if (input.prefetch.router) prefetchRouterInput(models, caches.routerInputs, turn, recent);
}

/** What the workflow routes by: the author's word ends, the session's language, the project type, the previous turn, length requirements. */
function preparedTurn(
  input: PrepareTurnInput,
  turn: RunningTurn,
  project: { type: string; summary?: string | null; style?: string | null; notes?: unknown },
  earlier: { turnId?: string | null; seq: number; content: string }[],
  previous: PreviousTurnFacts | null,
): PreparedTurn {
  const lengthRequirements = [
    ...findLengthRequirements(turn.message),
    ...findLengthRequirements([project.summary, project.style, project.notes].join('\n')),
    ...earlier.filter((m) => m.turnId !== input.turnId).flatMap((m) => findLengthRequirements(m.content)),
  ];
  return {
    wordEnds: authorWordEnds(turn.message),
    // The session's language: set by the author's substantive messages, kept by "OK" / "👍".
    language: sessionLanguage(
      [
        ...earlier
          .filter((m) => m.turnId !== input.turnId)
          .sort((a, b) => a.seq - b.seq)
          .map((m) => m.content),
        turn.message,
      ],
      uiLanguageOf(turn),
    ),
    projectType: project.type as PreparedTurn['projectType'],
    previous,
    lengthRequirements: [...new Set(lengthRequirements)].slice(0, 10),
  };
}

/** The previous turn's facts, read after a test's stall at its fault point (the budget's tests make it slow). */
async function previousRead(deps: ActivityDeps, turn: RunningTurn, recent: Promise<SessionMessages>) {
  await deps.faults?.pause?.('turn.prepare.previous', { turnId: String(turn._id) });
  return previousFacts(deps.models, turn.sessionId, String(turn._id), turn.createdAt, recent);
}

/** What the turn's record says about reads the budget cut off (none: an empty list). */
function unreadNotes(budgetMs: number, earlierLate: boolean, previousLate: boolean): string[] {
  const within = `not read within the ${budgetMs} ms preparation budget`;
  return [
    ...(previousLate ? [`previous turn ${within}: routed as if there were none`] : []),
    ...(earlierLate ? [`author's earlier requests ${within}: their length requirements and language left out`] : []),
  ];
}

async function prepareTurn(deps: ActivityDeps, input: PrepareTurnInput): Promise<PreparedTurn> {
  const { models } = deps;
  deps.faults?.hit('turn.prepare', { turnId: input.turnId });
  await deps.faults?.pause?.('turn.prepare', { turnId: input.turnId });
  const { early, turn } = await markRunning(deps, input);
  // One read of the session's latest few messages serves this activity and the router
  // (session-messages.ts); each reads for itself only what it does not hold. The author's
  // earlier requests are read beside it when the session is longer than it.
  const opening = (turn.sessionId === input.sessionId && early.opening) || openingReads(models, turn.sessionId);
  const { recent } = opening;
  startPrefetches(deps, input, turn, recent);
  // Everything else depends only on the turn: one round of parallel reads, on the path to the
  // first token; the previous turn and the earlier requests within their shared budget.
  // The project is read beside them but outside the budget: the turn cannot be routed without its type.
  const budget = readBudget(deps.config.PREPARATION_READ_BUDGET_MS);
  const [project, earlier, previous] = await Promise.all([
    (turn.projectId === input.projectId && early.project) || models.Project.findById(turn.projectId).lean(),
    budget.take(opening.requests),
    budget.take(previousRead(deps, turn, recent)),
  ]).finally(() => budget.close());
  if (!project) throw notFound('Project', turn.projectId);
  const notes = unreadNotes(deps.config.PREPARATION_READ_BUDGET_MS, earlier === LATE, previous === LATE);
  const prepared = preparedTurn(
    input,
    turn,
    project,
    earlier === LATE ? [] : earlier,
    previous === LATE ? null : previous,
  );
  if (notes.length) await models.Turn.updateOne({ _id: input.turnId }, { $set: { prepNotes: notes } });
  const withNotes = notes.length ? { ...prepared, prepNotes: notes } : prepared;
  // Last, after every write: a retried preparation asks the router again, as a retried router call did.
  if (!input.prefetch.router || !leavesRoutingToRouter(turn.message, prepared)) return withNotes;
  return { ...withNotes, ...(await routeAtOnce(deps, input.turnId)) };
}

/**
 * The router asked right here, when the rules leave the routing to it: its answer comes back
 * with the preparation instead of from a local activity of its own (one fewer between the
 * author's message and the first agent). A call that fails is the router's first attempt: the
 * workflow retries it as `routeTurn` and falls back after the rest (turn-routing.ts).
 */
async function routeAtOnce(deps: ActivityDeps, turnId: string): Promise<Pick<PreparedTurn, 'routing' | 'routerError'>> {
  const scope = activityScope.getStore();
  try {
    // Logs and model metrics name the router as the agent, as in routeTurn.
    const ask = () => askRouter(deps, { turnId });
    return { routing: await (scope ? activityScope.run({ ...scope, agent: 'router' }, ask) : ask()) };
  } catch (err) {
    if (Context.current().cancellationSignal.aborted) throw err;
    return { routerError: (err as Error).message.slice(0, 300) };
  }
}

/** The activity that opens a turn's work: prepareTurn, with the reads of the previous turn it needs. */
export function createTurnPrepareActivities(deps: ActivityDeps) {
  return {
    async prepareTurn(input: PrepareTurnInput): Promise<PreparedTurn> {
      return prepareTurn(deps, input);
    },
  };
}

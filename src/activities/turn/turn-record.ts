/**
 * The reply's record a turn's finalize writes (turn-finalize.ts): one assistant message per run
 * with text or file breadcrumbs, and the line that ends the reply with what was not saved.
 */
import { TOLD_IN_REPLY_STOP_REASONS } from '../../core/events';
import { idFromKey, isDuplicateKey } from '../../db/models';
import { isObjectId } from '../../core/ids';
import type { FinalizeInput, ToolOutcome } from '../../core/turn/turn-types';
import type { WorkAgent } from '../../core/plans';
import type { ActivityDeps } from '../deps';
import type { stepsUpTo } from './turn-reads';

/** A (bulk) write error made only of duplicate-key errors. */
function onlyDuplicateKeys(err: unknown): boolean {
  if (isDuplicateKey(err)) return true;
  const writeErrors = (err as { writeErrors?: { code?: number; err?: { code?: number } }[] } | null)?.writeErrors;
  return (
    Array.isArray(writeErrors) && writeErrors.length > 0 && writeErrors.every((e) => (e.code ?? e.err?.code) === 11000)
  );
}

/** A run's assistant message: its idempotency key, from which its `_id` derives (idFromKey). */
export const runMessageKey = (turnId: string, run: number): string => `${turnId}:run:${run}`;

/** An assistant message finalize writes: one per run with text or file breadcrumbs. */
export type PendingMessage = {
  agent: WorkAgent;
  text: string;
  breadcrumb: { op: string; fileId: string; title: string }[];
  key: string;
};

/** What finalize builds the turn's record from (turnRecord). */
export interface TurnRecordSources {
  turnId: string;
  runs: FinalizeInput['runs'];
  steps: Awaited<ReturnType<typeof stepsUpTo>>;
  /** A tool call's outcome by its key (`turnId:step:callId`). */
  outcomeOf: (key: string) => ToolOutcome | undefined;
  /** Keys of the run messages already on record (an earlier attempt of finalize). */
  savedKeys: Set<string>;
  /** Says which created files were never written; ends the last message ('' when none). */
  notSavedNote: string;
}

/** The runs' messages not yet on record, and the files the turn touched, leaving out the `dropped` files. */
export function turnRecord(
  t: TurnRecordSources,
  dropped: (fileId: string) => boolean,
): { pending: PendingMessage[]; touched: Set<string> } {
  const lastRunWithMessage = [...t.runs].reverse().find((r) => t.steps.some((st) => st.run === r.run))?.run ?? null;
  const touched = new Set<string>();
  const pending: PendingMessage[] = [];
  for (const run of t.runs) {
    const runSteps = t.steps.filter((s) => s.run === run.run);
    const breadcrumb: { op: string; fileId: string; title: string }[] = [];
    for (const s of runSteps)
      for (const c of s.toolCalls) {
        const top = t.outcomeOf(`${t.turnId}:${s.step}:${c.id}`);
        // A parallel_execute batch leaves its sub-tasks' reads in the breadcrumb.
        for (const o of [top, ...(top?.subOutcomes ?? [])])
          if (
            o?.ok &&
            o.fileId &&
            o.op &&
            ['created', 'edited', 'deleted', 'read'].includes(o.op) &&
            !dropped(o.fileId)
          ) {
            breadcrumb.push({ op: o.op, fileId: o.fileId, title: o.title ?? '' });
            if (o.op !== 'read') touched.add(o.fileId);
          }
      }
    // A dropped run loses only its held text; what streamed live stays part of the record.
    const said = runSteps
      .filter((s) => !(run.textDropped && s.held))
      .map((s) => s.text)
      .join('')
      .trim();
    // The last message says plainly which created files were never written.
    const text =
      run.run === lastRunWithMessage && t.notSavedNote ? [said, t.notSavedNote].filter(Boolean).join('\n\n') : said;
    if (!text && !breadcrumb.length) continue;
    const key = runMessageKey(t.turnId, run.run);
    if (!t.savedKeys.has(key)) pending.push({ agent: run.agent, text, breadcrumb, key });
  }
  return { pending, touched };
}

/**
 * The turn's assistant messages, one per run with something to keep: one sequence
 * reservation (finalize's, for all of them) and one insert, not two round trips per run.
 * Inserted with the numbers reserved for them, from `firstSeq` on.
 */
export async function appendAssistantMessages(
  models: ActivityDeps['models'],
  turn: { turnId: string; sessionId: string; projectId: string },
  pending: PendingMessage[],
  firstSeq: number,
): Promise<void> {
  if (!pending.length) return;
  try {
    await models.Message.insertMany(
      pending.map((m, i) => ({
        _id: idFromKey(m.key),
        sessionId: turn.sessionId,
        projectId: turn.projectId,
        turnId: turn.turnId,
        role: 'assistant',
        agent: m.agent,
        content: m.text,
        breadcrumb: m.breadcrumb,
        seq: firstSeq + i,
        key: m.key,
      })),
      { ordered: false },
    );
  } catch (err) {
    // A concurrent attempt wrote some of them first: the unique key kept one of each. (A
    // message an attempt before derived ids stored under another _id is caught here too; its
    // retry only reserved sequence numbers it leaves unused.)
    if (!onlyDuplicateKeys(err)) throw err;
  }
}

/** Ids among these that no longer exist at all (rolled back by an earlier attempt of finalize). */
export async function filesGone(models: ActivityDeps['models'], ids: (string | undefined)[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x && isObjectId(x)))];
  if (!wanted.length) return new Set();
  const found = await models.File.find({ _id: { $in: wanted } })
    .select({ _id: 1 })
    .lean();
  const present = new Set(found.map((f) => String(f._id)));
  return new Set(wanted.filter((id) => !present.has(id)));
}

/** The reply's account of a body that went into a new file instead of the one it was streamed for. */
function keptAsideLine(f: { title: string; keptFrom?: unknown }, language: 'zh' | 'en'): string {
  const from = (f.keptFrom ?? {}) as { reason?: string };
  const target = f.title.replace(/ \(AI draft\)$/, '');
  const deleted = from.reason === 'file_deleted';
  return language === 'zh'
    ? `（未保存到《${target}》：作者在写入期间${deleted ? '删除了它' : '修改了它，作者的文字已保留'}；这段正文另存为《${f.title}》。）`
    : `(Not saved into "${target}": the author ${deleted ? 'deleted it' : 'edited it, and their text is kept'} while it was being written; the text is kept in "${f.title}".)`;
}

/**
 * What ends the turn's reply: the files never written, bodies kept aside, and a stop that
 * says what became of the answer itself (cut off, filtered, empty).
 */
export function endOfReply(
  unwritten: { title: string }[],
  keptAside: { title: string; keptFrom?: unknown }[],
  input: FinalizeInput,
  language: 'zh' | 'en',
): string {
  const toldInReply =
    input.stopReason && TOLD_IN_REPLY_STOP_REASONS.includes(input.stopReason) ? (input.stopMessage ?? '') : '';
  const lines = [
    unwritten.length
      ? notSavedLine(
          unwritten.map((f) => f.title),
          language,
        )
      : '',
    ...keptAside.map((f) => keptAsideLine(f, language)),
    toldInReply,
  ];
  return lines.filter(Boolean).join('\n');
}

function notSavedLine(titles: string[], language: 'zh' | 'en'): string {
  return language === 'zh'
    ? `（未保存：${titles.map((t) => `《${t}》`).join('、')}没有写入正文，已移除。）`
    : `(Not saved: ${titles.map((t) => `"${t}"`).join(', ')} ${titles.length > 1 ? 'were' : 'was'} never written and ${titles.length > 1 ? 'were' : 'was'} removed.)`;
}

/**
 * Run control from chat: "pause the job", "暂停任务", "cancel job <id>",
 * "进度怎么样", "job status" are answered without a model call. The job is the one the
 * message names by id, else the project's running one; the reply says what happened in
 * the author's language. Pure module: runs inside the workflow.
 */
import { chapterRange, jobStatusWord, jobWords } from '../author-words';
import { findUnitRefs } from './numerals';
import { orderStands } from './order-checks';
import { VOIDS } from './order-words';
import { JOB_RESTATED } from './job-words';
import { bareJobVerbOf, bareResumeOf, jobOrderOf, mentionsJobControl, namesJob, type JobAction } from './orders';
import { withSpacedClauses, type MessageReading, type ReadSentence } from './reading';
import { isConfirmation } from './proposals';
import type { JobOffer } from './routing';

export type JobCommandAction = 'pause' | 'resume' | 'cancel' | 'status';

export interface JobCommand {
  action: JobCommandAction;
  /** A job id the message names (24 hex), else the project's running job is meant. */
  jobId: string | null;
}

/** What the command found: the job as its record says, or why there is none. */
export interface JobLookup {
  job: {
    id: string;
    workflowId: string;
    status: string;
    from: number;
    to: number;
    chaptersDone: number[];
    words: number;
    /** For operators only: the reply never quotes it. */
    failure: string | null;
    /** The chapter a failed job stopped on (null: the outline; absent in lookups older than this field). */
    failedChapter?: number | null;
  } | null;
  /** `not_found`: no such job of this author's; `none_running`: the project has no active job. */
  reason?: 'not_found' | 'none_running';
}

const JOB_WORD = /\b(?:job|jobs|generation|batch|run)\b|任务|生成任务|批量|长任务|作业/iu;
const STATUS =
  /\b(?:status|progress|how(?:'s|s| is| are) (?:it|the job|things|we) (?:going|doing|getting on|coming along)|where (?:is|are) (?:it|we)|where (?:has|have) (?:it|the job|we) got(?:ten)? to|how far|still (?:running|going|on)|is (?:it|the job) (?:running|done|finished))\b|进度|状态|进行到|进展|到哪了|到哪一步|怎么样了|写到第?几章|跑到第?几章|几章了|还在跑|跑完了|写完了吗/iu;
/** Status questions that name no job word but can only mean it ("进度怎么样", "job progress?"). */
const BARE_STATUS =
  /^(?:现在|目前)?(?:任务)?(?:进度|状态)(?:怎么样|如何)?了?[吗呢]?[?？。.!！]*$|^(?:what'?s the )?(?:job )?(?:status|progress)\??$|^(?:现在|目前)?(?:跑|写)到第?几章了?(?:\s*(?:老板|亲爱的|亲|宝|呀|啊|呢))*[?？~～]*$/iu;
/**
 * Not take-backs, though the take-back reading would see them: the command itself in "cancel that
 * job", and "hold on" opening the message ("hold on pause the job a sec"), with nothing before it to take back.
 */
const THAT_JOB =
  /\b(?:cancel|stop|abort|pause|hold) (?:that|this) (?:job|generation|batch|run)\b|^\s*(?:hold|hang) on\b/giu;

/** A question after a job order that names a chapter or episode asks about it, not about the order ("pause the job. is Episode 3 too dark?"). */
const aboutAUnit = (s: ReadSentence): boolean => findUnitRefs(s.text).length > 0;

/** The job a message names by its id (24 hex), or null for the project's running one. */
const jobIdIn = (text: string): string | null => /\b[0-9a-f]{24}\b/i.exec(text)?.[0]?.toLowerCase() ?? null;

/** Too long or several lines: a message about something else that mentions the job. */
const tooLong = (text: string): boolean => Array.from(text.trim()).length > 240;

/**
 * Reads a run-control command, or null when the message gives none. Pause, resume and cancel
 * act on the author's biggest spend, so only an order does: a clause the grammar of orders reads
 * whole (core/words/orders.ts: "pause the job", "把任务暂停一下", "cancel job <id> please") that nothing
 * around it turns into a question, a condition, a later, a report, a joke or a take-back
 * (core/words/order-checks.ts). A question, polite ones included ("can you pause the job?",
 * "能不能帮我把任务取消了？"), gives no order: {@link jobQuestionOf} asks the author instead.
 * "How is the job going?" is a status request (it changes nothing).
 */
export function jobCommandOf(message: MessageReading): JobCommand | null {
  // "任务先暂停 我要改大纲": a space between Chinese words ends a clause, as a comma does.
  const reading = withSpacedClauses(message);
  const text = reading.text;
  if (!text.trim() || tooLong(text)) return null;
  // A chapter is writing, not a job: "stop chapter 3 here" or "continue chapter 4" name no job and
  // are no order of the grammar; they go to the agents.
  const jobId = jobIdIn(text);
  for (const [si, sentence] of reading.sentences.entries())
    for (const [ci, clause] of sentence.clauses.entries()) {
      // An order whole in its clause, or a bare verb right after a clause about the job ("任务不要了，取消掉").
      const prev = sentence.clauses[ci - 1];
      const action =
        jobOrderOf(clause)?.action ??
        (prev && namesJob(prev) ? bareJobVerbOf(clause) : null) ??
        (bareResumeOf(clause) ? 'resume' : null);
      if (!action || saysOtherwise(sentence, ci, action)) continue;
      if (orderStands(reading, si, ci, aboutAUnit, THAT_JOB)) return { action, jobId };
      const paused = action === 'pause' ? pauseBeforeWait(reading, si, ci) : null;
      if (paused && orderStands(paused, si, ci, aboutAUnit, THAT_JOB)) return { action, jobId };
    }
  if (
    (JOB_WORD.test(text) || jobId) &&
    STATUS.test(text) &&
    !reading.sentences.some((s) => s.clauses.some((c) => mentionsJobControl(c)))
  )
    return { action: 'status', jobId };
  if (BARE_STATUS.test(text.trim())) return { action: 'status', jobId };
  return null;
}

/**
 * A later clause of the sentence that says what another command would ("暂停任务 接着写": pause,
 * then "go on writing"): the author says two things at once, so neither is an order.
 */
function saysOtherwise(sentence: ReadSentence, ci: number, action: JobAction): boolean {
  const bare = (text: string): string => text.replace(/[\s\p{P}\p{S}]+/gu, '').toLowerCase();
  return sentence.clauses
    .slice(ci + 1)
    .some((c) =>
      (Object.keys(JOB_RESTATED) as JobAction[]).some(
        (other) => other !== action && JOB_RESTATED[other].some((p) => bare(c.text).startsWith(p)),
      ),
    );
}

/** A wait that puts off only what comes after it: talking, deciding or going on later ("等我看完第三章再说"). */
const WAIT_TO_GO_ON = /^\s*等.{1,30}再(?:说|看|决定|继续|恢复|开始|跑)(?:吧|啦|了)?[。.!！~～]*\s*$/u;

/**
 * "先暂停一下 job，等我看完第三章再说": a pause said to come first (先), then a wait that ends on
 * talking or going on later, with no order of its own. The pause is now; what waits is the resume.
 * Returns the reading without the wait (for the usual checks), or null when the sentence is not so
 * built. Only a pause: it is undone by a resume, and no other command is read past a wait.
 */
function pauseBeforeWait(reading: MessageReading, si: number, ci: number): MessageReading | null {
  const sentence = reading.sentences[si]!;
  const after = sentence.clauses.slice(ci + 1);
  if (!/先/u.test(sentence.clauses[ci]!.text) || !after.length) return null;
  if (!after.every((c) => WAIT_TO_GO_ON.test(c.text))) return null;
  const cut = after[0]!.start - sentence.start;
  const trimmed = { ...sentence, text: sentence.text.slice(0, cut), clauses: sentence.clauses.slice(0, ci + 1) };
  return { ...reading, sentences: reading.sentences.map((s, i) => (i === si ? trimmed : s)) };
}

/** A message that would control the job but gives no order: the author is asked which, and whether now. */
export interface JobQuestion {
  /** What the author seems to want; `stop` when it could be a pause or a cancel. */
  action: JobAction | 'stop';
  jobId: string | null;
}

/**
 * The message mentions pausing, resuming, cancelling or stopping the job but is not an order for
 * it ("can you pause the job?", "stop the job", "我想取消任务"): nothing is done, and the turn asks
 * one line back. Reports and jokes about it ("我刚才已经把任务暂停了", "cancel the job lol") are not
 * asked about, and a question why ("why did the job stop?") goes to the agents.
 */
export function jobQuestionOf(reading: MessageReading): JobQuestion | null {
  const text = reading.text;
  if (!text.trim() || tooLong(text) || findUnitRefs(text).length || jobCommandOf(reading)) return null;
  if (REPORT.test(text) || VOIDS.test(text) || /\b(?:why|how)\b|为什么|为啥|怎么/iu.test(text)) return null;
  for (const sentence of reading.sentences)
    for (const clause of sentence.clauses) {
      const action = mentionsJobControl(clause);
      if (action) return { action, jobId: jobIdIn(text) };
    }
  return null;
}

/** What happened, not what to do: "任务停止了", "I already paused it", "我刚才已经把任务暂停了". */
const REPORT =
  /已经|刚才|刚刚|\b(?:already|just (?:paused|cancelled|canceled|resumed|stopped)|i (?:paused|cancelled|canceled|resumed|stopped))\b|(?:停止|取消|暂停|终止|中止|停掉|结束|恢复|继续)了[。.!！~～]*$/iu;

/** The job statuses each action applies to. */
const APPLIES: Record<Exclude<JobCommandAction, 'status'>, string[]> = {
  pause: ['queued', 'running'],
  // A failed job waits for a resume, which retries the chapter it stopped on.
  resume: ['paused', 'pausing', 'failed'],
  cancel: ['queued', 'running', 'pausing', 'paused', 'failed'],
};

/** Whether the action does anything to a job in this status. */
export const commandApplies = (action: JobCommandAction, status: string): boolean =>
  action === 'status' || APPLIES[action].includes(status);

/** The turn's reply: what was done to which job, and where it stands, in the author's words (no status codes, ids or routes). */
export function jobCommandReply(cmd: JobCommand, lookup: JobLookup, language: 'zh' | 'en', signalled: boolean): string {
  const zh = language === 'zh';
  const job = lookup.job;
  if (!job)
    return lookup.reason === 'not_found'
      ? zh
        ? '没有找到你说的这个任务。'
        : 'That job was not found.'
      : zh
        ? '这个项目现在没有进行中的任务。'
        : 'There is no running job in this project.';
  const done = job.chaptersDone.length;
  const total = job.to - job.from + 1;
  const status = jobStatusWord(job.status, language);
  const where = zh
    ? `任务（${chapterRange(job.from, job.to, language)}）：已完成 ${done}/${total} 章，共 ${job.words} 字，状态：${status}。`
    : `Job (${chapterRange(job.from, job.to, language)}): ${done} of ${total} ${total === 1 ? 'chapter' : 'chapters'} done, ${job.words} words, status: ${status}.`;
  if (cmd.action === 'status')
    return job.status === 'failed'
      ? `${where}\n${jobWords(language).failed(job.failedChapter ?? null, 'error')}`
      : where;
  if (!commandApplies(cmd.action, job.status))
    return zh
      ? `${where}\n这个状态下无法${{ pause: '暂停', resume: '继续', cancel: '取消' }[cmd.action]}。`
      : `${where}\nIt cannot be ${cmd.action === 'pause' ? 'paused' : cmd.action === 'resume' ? 'resumed' : 'cancelled'} now.`;
  if (!signalled)
    return zh
      ? `${where}\n这个任务已不在运行，请在“任务”页里${{ pause: '暂停', resume: '继续', cancel: '取消' }[cmd.action]}它。`
      : `${where}\nIt is no longer running: ${cmd.action === 'pause' ? 'pause' : cmd.action === 'resume' ? 'resume' : 'cancel'} it from the Jobs page.`;
  const did = zh
    ? {
        pause: '正在暂停：当前这一章写完后停下。',
        resume: '已继续。',
        cancel: '已取消：正在写的那一章停止，已完成的章节都保留。',
      }[cmd.action]
    : {
        pause: 'Pausing: the chapter being written is finished first, then the job waits.',
        resume: 'Resumed.',
        cancel: 'Cancelled: the chapter being written stops; finished chapters are kept.',
      }[cmd.action];
  return `${did}\n${where}`;
}

/**
 * The author's answer to the job command a previous turn asked about: a plain yes runs the
 * offered one; after "pause it or cancel it?" a one-word pause / cancel / 暂停 / 取消 picks.
 */
export function answerToJobOffer(offer: JobOffer, reading: MessageReading): JobCommand | null {
  const text = reading.text.trim();
  if (offer.action !== 'stop') return isConfirmation(text) ? { action: offer.action, jobId: offer.jobId } : null;
  const pick = /^(?:pause|暂停)(?:\s*(?:it|please|吧|一下))?[.!。！]*$/iu.test(text)
    ? 'pause'
    : /^(?:cancel|取消)(?:\s*(?:it|please|吧|掉))?[.!。！]*$/iu.test(text)
      ? 'cancel'
      : null;
  return pick ? { action: pick, jobId: offer.jobId } : null;
}

/** The one line that asks before a job command the message did not clearly give. */
export function jobQuestionReply(
  question: JobQuestion,
  job: NonNullable<JobLookup['job']>,
  language: 'zh' | 'en',
): string {
  const zh = language === 'zh';
  const which = chapterRange(job.from, job.to, language);
  if (question.action === 'stop')
    return zh
      ? `要暂停任务（${which}）还是取消它？暂停之后可以继续；取消会停下正在写的那一章，已完成的章节都保留。请回复“暂停”或“取消”。`
      : `Pause the job (${which}) or cancel it? A paused job can be resumed; cancelling stops the chapter in flight and keeps the finished ones. Reply “pause” or “cancel”.`;
  const verb = zh ? { pause: '暂停', resume: '继续', cancel: '取消' }[question.action] : question.action;
  return zh
    ? `现在就${verb}任务（${which}）吗？回复“好的”我就${verb}；不需要的话直接说你想做什么。`
    : `${verb[0]!.toUpperCase()}${verb.slice(1)} the job (${which}) now? Reply “yes” and I will; otherwise just tell me what you'd like.`;
}

/**
 * Run control from chat (seed 004 L1, issue 29): "pause the job", "暂停任务", "cancel job
 * <id>", "进度怎么样", "job status" are answered without a model call. The job is the one the
 * message names by id, else the project's running one; the reply says what happened in
 * the author's language. Pure module: runs inside the workflow.
 */
import { chapterRange, jobStatusWord, jobWords } from './author-words';
import { findUnitRefs } from './numerals';
import { straightQuotes } from './text';
import { isConditionalSentence, isHedgedClause, isQuestionSentence, lastRetractionEnd, splitSentences } from './utterance';

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
const ACTIONS: [JobCommandAction, RegExp][] = [
  ['cancel', /\b(?:cancel|abort|kill|terminate|stop)\b|取消|终止|停止|中止|停掉|结束/iu],
  ['pause', /\b(?:pause|hold|suspend)\b|暂停|先停|停一下|停一停|挂起/iu],
  ['resume', /\b(?:resume|unpause|restart|continue|carry on|go on)\b|继续|恢复|接着/iu],
  ['status', /\b(?:status|progress|how(?:'s| is) (?:it|the job) (?:going|doing)|where (?:is|are) (?:it|we))\b|进度|状态|进行到|到哪了|怎么样了|写到第?几章/iu],
];
/** Status questions that name no job word but can only mean it ("进度怎么样", "job progress?"). */
const BARE_STATUS = /^(?:现在|目前)?(?:任务)?(?:进度|状态)(?:怎么样|如何)?了?[吗呢]?[?？。.!！]*$|^(?:what'?s the )?(?:job )?(?:status|progress)\??$/iu;

/**
 * Pause, resume and cancel act on the author's biggest spend, so only a request does. The
 * message is read as every rule reads an author (core/utterance): a question ("should I
 * cancel the job?", "任务为什么停止了"), a condition ("if it fails, cancel it"), a hedge or a later
 * ("I might cancel it tomorrow") or a take-back ("cancel the job lol jk") goes to the agents,
 * who act on nothing (seed 004: when the wording is unclear the answer is no and the author
 * is asked); so does a report of what happened ("任务停止了"). A polite request in question form
 * ("can you pause the job?", "能帮我暂停任务吗？") is a request.
 */
const POLITE_REQUEST = /^(?:please\s+)?(?:can|could|would|will) you (?:please )?\S|(?:能|可以|能不能|可不可以|麻烦)(?:你)?帮(?:我|忙)|^(?:请|麻烦你?)/iu;
/** The take-back reading would see the command itself in "cancel that job". */
const THAT_JOB = /\b(cancel|stop|abort|pause|hold) (?:that|this)\b/giu;
/** "任务停止了" tells what happened; "把任务停了" asks for it. */
const REPORT_ZH = /(?:停止|取消|暂停|终止|中止|停掉|结束|恢复|继续)了[。.!！~～]*$/u;
const ASKS_ZH = /把|帮|请|给我|麻烦/u;

function isRequest(message: string): boolean {
  const t = message.replace(THAT_JOB, '$1 the');
  if (lastRetractionEnd(t) >= 0 || isConditionalSentence(t)) return false;
  if (POLITE_REQUEST.test(t)) return true;
  if (isHedgedClause(t) || splitSentences(t).some(isQuestionSentence)) return false;
  return !REPORT_ZH.test(t) || ASKS_ZH.test(t);
}

/** Reads a run-control command, or null when the message is about something else. */
export function jobCommandOf(message: string): JobCommand | null {
  const t = straightQuotes(message).trim();
  if (!t || Array.from(t).length > 80 || /\n/.test(t)) return null;
  // A chapter is writing, not a job: "stop chapter 3 here" or "continue chapter 4" go to the agents;
  // and anything said with a "don't" is better read by the agents too.
  if (findUnitRefs(t).length || /\b(?:don'?t|do not|never|not)\b|别|不要|不用|不想/iu.test(t)) return null;
  const jobId = /\b[0-9a-f]{24}\b/i.exec(t)?.[0]?.toLowerCase() ?? null;
  if (!JOB_WORD.test(t) && !jobId && !BARE_STATUS.test(t)) return null;
  const action = ACTIONS.find(([, re]) => re.test(t))?.[0] ?? null;
  if (!action || (action !== 'status' && !isRequest(t))) return null;
  return { action, jobId };
}

/** The job statuses each action applies to. */
const APPLIES: Record<Exclude<JobCommandAction, 'status'>, string[]> = {
  pause: ['queued', 'running'],
  // A failed job waits for a resume, which retries the chapter it stopped on.
  resume: ['paused', 'pausing', 'failed'],
  cancel: ['queued', 'running', 'pausing', 'paused', 'failed'],
};

/** Whether the action does anything to a job in this status. */
export const commandApplies = (action: JobCommandAction, status: string): boolean => action === 'status' || APPLIES[action].includes(status);

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
    return job.status === 'failed' ? `${where}\n${jobWords(language).failed(job.failedChapter ?? null, 'error')}` : where;
  if (!commandApplies(cmd.action, job.status)) return zh ? `${where}\n这个状态下无法${{ pause: '暂停', resume: '继续', cancel: '取消' }[cmd.action]}。` : `${where}\nIt cannot be ${cmd.action === 'pause' ? 'paused' : cmd.action === 'resume' ? 'resumed' : 'cancelled'} now.`;
  if (!signalled)
    return zh
      ? `${where}\n这个任务已不在运行，请在“任务”页里${{ pause: '暂停', resume: '继续', cancel: '取消' }[cmd.action]}它。`
      : `${where}\nIt is no longer running: ${cmd.action === 'pause' ? 'pause' : cmd.action === 'resume' ? 'resume' : 'cancel'} it from the Jobs page.`;
  const did = zh
    ? { pause: '正在暂停：当前这一章写完后停下。', resume: '已继续。', cancel: '已取消：正在写的那一章停止，已完成的章节都保留。' }[cmd.action]
    : { pause: 'Pausing: the chapter being written is finished first, then the job waits.', resume: 'Resumed.', cancel: 'Cancelled: the chapter being written stops; finished chapters are kept.' }[cmd.action];
  return `${did}\n${where}`;
}

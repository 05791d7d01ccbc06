/**
 * The message a job leaves in its session when it stops (issue 29, seed 004): what was
 * written (chapters, words, revision rounds) and what is left, in plain sentences in the
 * job's language. Idempotent: one message per job, status and chapter count.
 */
import { isDuplicateKey, type JobDoc, type Models } from '../db/models';
import { reserveMessageSeqs } from '../db/turn-records';
import { detectLanguage } from '../core/text';
import { type Lang } from './job-text';

export interface JobSummaryFacts {
  status: string;
  from: number;
  to: number;
  chaptersDone: number[];
  words: number;
  revisions: number;
  /** The chapter the job stopped before (failed, paused). */
  next: number;
  failure: string | null;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Runs of consecutive numbers: [1,2,3,5] → "1–3, 5". */
function ranges(ns: number[], zh: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j]! + 1) j++;
    out.push(i === j ? `${ns[i]}` : `${ns[i]}${zh ? '-' : '–'}${ns[j]}`);
    i = j + 1;
  }
  return out.join(zh ? '、' : ', ');
}

export function jobSummaryText(f: JobSummaryFacts, lang: Lang): string {
  const zh = lang === 'zh';
  const done = [...new Set(f.chaptersDone)].sort((a, b) => a - b);
  const left: number[] = [];
  for (let n = f.from; n <= f.to; n++) if (!done.includes(n)) left.push(n);
  const written = done.length
    ? zh
      ? `已写完第${ranges(done, true)}章，共 ${f.words} 字${f.revisions ? `，修订 ${f.revisions} 轮` : ''}。`
      : `Written: ${done.length === 1 ? 'chapter' : 'chapters'} ${ranges(done, false)} (${plural(f.words, 'word', 'words')}${f.revisions ? `, ${plural(f.revisions, 'revision round', 'revision rounds')}` : ''}).`
    : zh
      ? '还没有写完任何一章。'
      : 'No chapter was finished.';
  const rest = left.length ? (zh ? `剩下第${ranges(left, true)}章。` : `Left: ${left.length === 1 ? 'chapter' : 'chapters'} ${ranges(left, false)}.`) : zh ? '没有剩下的章节。' : 'Nothing is left.';
  const head = {
    completed: zh ? `任务完成（第${f.from}-${f.to}章）。` : `The job for chapters ${f.from}–${f.to} is complete.`,
    cancelled: zh ? `任务已取消（第${f.from}-${f.to}章）。` : `The job for chapters ${f.from}–${f.to} was cancelled.`,
    failed: zh ? `任务在第${f.next}章停下了：${f.failure ?? '出错'}。恢复任务即可重试这一章。` : `The job stopped at chapter ${f.next}: ${f.failure ?? 'it failed'}. Resume the job to try that chapter again.`,
    paused: zh ? `任务在第${f.next}章之前暂停了：预算不够写下一章。提高预算后恢复即可继续。` : `The job paused before chapter ${f.next}: the next chapter would go over its budget. Resume it with a higher budget to go on.`,
  }[f.status] ?? (zh ? `任务状态：${f.status}。` : `The job is ${f.status}.`);
  return [head, written, rest].join(zh ? '' : ' ');
}

export async function postJobSummary(models: Models, jobAtStart: JobDoc, status: string, facts: { revisions: number; next: number }, failure: string | null): Promise<void> {
  const jobId = String(jobAtStart._id);
  // The chapters and words as they are now (the status update above may have just landed).
  const [job, project] = await Promise.all([models.Job.findById(jobId).lean(), models.Project.findById(jobAtStart.projectId).select({ summary: 1 }).lean()]);
  if (!job) return;
  const lang = detectLanguage([job.instructions, project?.summary ?? ''].join('\n').trim() || 'en') as Lang;
  const text = jobSummaryText({ status, from: job.from, to: job.to, chaptersDone: job.chaptersDone, words: job.words ?? 0, revisions: facts.revisions, next: facts.next, failure: failure ?? job.failure ?? null }, lang);
  const key = `job:${jobId}:summary:${status}:${job.chaptersDone.length}:${facts.next}`;
  if (await models.Message.exists({ key })) return;
  const seq = (await reserveMessageSeqs(models, job.sessionId, 1)) ?? 0;
  try {
    // The job's id stands for the turn: no turn of the session is this message's.
    await models.Message.create({ sessionId: job.sessionId, projectId: job.projectId, turnId: jobId, role: 'assistant', agent: null, content: text, seq, key });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

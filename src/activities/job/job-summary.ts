/**
 * The message a job leaves in its session when it stops: what was written
 * (chapters, words, revision rounds) and what is left, in plain sentences in the job's
 * language, with the chapter forms people write ("chapters 1–3", "第1–3章"). Idempotent: one
 * message per job, status and chapter count.
 */
import { insertOnce, type JobDoc, type Models } from '../../db/models';
import { reserveMessageSeqs } from '../../db/turn-records';
import { chapterList, chapterRange, type JobFailureReason, jobWords } from '../../core/author-words';
import { type Lang } from '../../core/job/job-text';

export interface JobSummaryFacts {
  status: string;
  from: number;
  to: number;
  chaptersDone: number[];
  words: number;
  revisions: number;
  /** The chapter the job stopped before (failed, paused). */
  next: number;
  /** Why it failed, in the author's terms (never the operator's message). */
  reason: JobFailureReason | null;
  /** The chapter it failed on (null: the outline). */
  failedChapter?: number | null;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function jobSummaryText(f: JobSummaryFacts, lang: Lang): string {
  const zh = lang === 'zh';
  const words = jobWords(lang);
  const done = [...new Set(f.chaptersDone)].sort((a, b) => a - b);
  const left: number[] = [];
  for (let n = f.from; n <= f.to; n++) if (!done.includes(n)) left.push(n);
  const written = done.length
    ? zh
      ? `已写完${chapterList(done, lang)}，共 ${f.words} 字${f.revisions ? `，修订 ${f.revisions} 轮` : ''}。`
      : `Written: ${chapterList(done, lang)} (${plural(f.words, 'word', 'words')}${f.revisions ? `, ${plural(f.revisions, 'revision round', 'revision rounds')}` : ''}).`
    : zh
      ? '还没有写完任何一章。'
      : 'No chapter was finished.';
  const rest = left.length
    ? zh
      ? `剩下${chapterList(left, lang)}。`
      : `Left: ${chapterList(left, lang)}.`
    : zh
      ? '没有剩下的章节。'
      : 'Nothing is left.';
  const range = chapterRange(f.from, f.to, lang);
  const head =
    {
      completed: zh ? `任务完成（${range}）。` : `The job for ${range} is complete.`,
      cancelled: zh ? `任务已取消（${range}）。` : `The job for ${range} was cancelled.`,
      failed: words.failed(f.failedChapter === undefined ? f.next : f.failedChapter, f.reason ?? 'error'),
      paused: zh
        ? `任务在${chapterList([f.next], lang)}之前暂停了：预算不够写下一章。提高预算后恢复即可继续。`
        : `The job paused before chapter ${f.next}: the next chapter would go over its budget. Raise the budget and resume it to go on.`,
    }[f.status] ?? (zh ? '任务停下了。' : 'The job stopped.');
  return [head, written, rest].join(zh ? '' : ' ');
}

/**
 * Posts the job's closing message in its session (once per job, status and chapter count), in
 * the language the job was started in.
 */
/** The closing message a job posted to its session: its idempotency key and its text. */
export interface PostedSummary {
  key: string;
  text: string;
}

export async function postJobSummary(
  models: Models,
  jobAtStart: JobDoc,
  status: string,
  facts: { revisions: number; next: number },
  failure: { chapter: number | null; reason?: JobFailureReason } | null,
): Promise<PostedSummary | null> {
  const jobId = String(jobAtStart._id);
  // The chapters and words as they are now (the status update above may have just landed).
  const job = await models.Job.findById(jobId).lean();
  if (!job) return null;
  const lang: Lang = job.language === 'zh' ? 'zh' : 'en';
  const text = jobSummaryText(
    {
      status,
      from: job.from,
      to: job.to,
      chaptersDone: job.chaptersDone,
      words: job.words ?? 0,
      revisions: facts.revisions,
      next: facts.next,
      reason: failure?.reason ?? null,
      ...(failure ? { failedChapter: failure.chapter } : {}),
    },
    lang,
  );
  const key = `job:${jobId}:summary:${status}:${job.chaptersDone.length}:${facts.next}`;
  // A retried activity finds its message posted and hands back the same text.
  if (await models.Message.exists({ key })) return { key, text };
  const seq = (await reserveMessageSeqs(models, job.sessionId, 1)) ?? 0;
  // The job's id stands for the turn: no turn of the session is this message's.
  await insertOnce(models.Message, {
    sessionId: job.sessionId,
    projectId: job.projectId,
    turnId: jobId,
    role: 'assistant',
    agent: null,
    content: text,
    seq,
    key,
  });
  return { key, text };
}

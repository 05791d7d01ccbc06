/**
 * Sentences a person reads about the team's work — a handoff between agents, a job's
 * progress — in the author's language, with singular and plural right. The events keep their
 * machine fields (`kind`, `reason`, `chaptersDone`…) for clients; these are the `text` /
 * `message` beside them. Pure: built in workflows as well as activities.
 */
import type { AgentName } from './events';
import type { Language } from './words/language';

const AGENT_NAMES: Record<AgentName, Record<Language, string>> = {
  router: { en: 'the router', zh: '调度' },
  planner: { en: 'the planner', zh: '策划' },
  hook_designer: { en: 'the hook designer', zh: '钩子设计' },
  writer: { en: 'the writer', zh: '写手' },
  quality_reviewer: { en: 'the reviewer', zh: '审稿' },
};

/** An agent as the author reads it ("the writer", "写手"); `capital` starts a sentence. */
export function agentName(agent: AgentName, lang: Language, capital = false): string {
  const name = AGENT_NAMES[agent][lang];
  return capital && lang === 'en' ? name[0]!.toUpperCase() + name.slice(1) : name;
}

export type HandoffKind =
  'explicit' | 'planned' | 'review_gate' | 'continuation' | 'planner_repair' | 'empty_file_repair';

/** One sentence for a handoff card: who takes over and why, never the bare kind. */
export function handoffText(
  h: { from: AgentName; to: AgentName; kind: HandoffKind; reason: string },
  lang: Language,
): string {
  const to = agentName(h.to, lang);
  const To = agentName(h.to, lang, true);
  const reason = h.reason.trim();
  // A reason that only repeats the kind ("continuation") adds nothing to the sentence.
  const why = reason && reason !== h.kind ? reason.replace(/[.。]$/u, '') : '';
  if (lang === 'zh') {
    switch (h.kind) {
      case 'continuation':
        return `${to}接着往下写。`;
      case 'planned':
        return `按计划，接下来由${to}接手${why ? `：${why}` : ''}。`;
      case 'review_gate':
        return `${to}先审读这一稿，再交给你。`;
      case 'planner_repair':
        return `${to}先把计划补完整。`;
      case 'empty_file_repair':
        return `${to}补写留空的文件。`;
      case 'explicit':
        return `${agentName(h.from, lang)}把工作交给${to}${why ? `：${why}` : ''}。`;
    }
  }
  switch (h.kind) {
    case 'continuation':
      return h.from === h.to
        ? `${To} carries on where it stopped.`
        : `${To} carries on from ${agentName(h.from, lang)}.`;
    case 'planned':
      return `Next in the plan: ${to}${why ? ` (${why})` : ''}.`;
    case 'review_gate':
      return `${To} reads the draft before it reaches you.`;
    case 'planner_repair':
      return `${To} completes the plan first.`;
    case 'empty_file_repair':
      return `${To} fills in the file it left empty.`;
    case 'explicit':
      return `${agentName(h.from, lang, true)} hands over to ${to}${why ? `: ${why}` : ''}.`;
  }
}

/** Dollars as people read them: cents for amounts from a dollar, four decimals below (API prices are tiny). */
export function usd(amount: number): string {
  return amount >= 1 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}

/** "1 chapter", "3 chapters"; Chinese counts without a plural or a space: "3章". */
export function chapters(n: number, lang: Language): string {
  return lang === 'zh' ? `${n}章` : `${n} ${n === 1 ? 'chapter' : 'chapters'}`;
}

/** A chapter range: "chapters 1–3" / "chapter 2"; "第1–3章" / "第2章". */
export function chapterRange(from: number, to: number, lang: Language): string {
  return chapterList(
    Array.from({ length: to - from + 1 }, (_, i) => from + i),
    lang,
  );
}

/** Numbers as runs, in order: [1, 2, 3, 7, 9, 10] → ["1–3", "7", "9–10"]. */
export function numberRuns(ns: readonly number[]): string[] {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j === i ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return runs;
}

/** Chapters as a person lists them: "chapter 4", "chapters 1–2, 5"; "第4章", "第1–2、5章". */
export function chapterList(ns: readonly number[], lang: Language): string {
  const runs = numberRuns(ns);
  if (lang === 'zh') return `第${runs.join('、')}章`;
  return `${new Set(ns).size === 1 ? 'chapter' : 'chapters'} ${runs.join(', ')}`;
}

const JOB_STATUS_WORDS: Record<string, Record<Language, string>> = {
  queued: { en: 'queued', zh: '排队中' },
  running: { en: 'running', zh: '进行中' },
  pausing: { en: 'pausing', zh: '正在暂停' },
  paused: { en: 'paused', zh: '已暂停' },
  failed: { en: 'stopped on a problem', zh: '出错停下' },
  cancelled: { en: 'cancelled', zh: '已取消' },
  completed: { en: 'completed', zh: '已完成' },
};

/** A job's status as the author reads it ("进行中", "paused"). */
export const jobStatusWord = (status: string, lang: Language): string =>
  JOB_STATUS_WORDS[status]?.[lang] ?? (lang === 'zh' ? '未知' : 'unknown');

/** A sentence's first letter in capitals (English; Chinese has none). */
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Why a chapter (or the outline) could not be finished, as the job tells the author: never a
 * turn id, a stop code or a tool name (those stay in the Job's `failure` for operators).
 */
export type JobFailureReason = 'turn_failed' | 'interrupted' | 'cut_off' | 'no_draft' | 'error';

/** A job begins (the range, and what happens to chapters that already have text) or starts again. */
function startWords(lang: Language) {
  const zh = lang === 'zh';
  const ch = (n: number) => chapterList([n], lang);
  return {
    /** The first message: the range, and what happens to chapters that already have text. */
    started: (
      from: number,
      to: number,
      existing: readonly number[] = [],
      mode: 'skip' | 'revise' | 'rewrite' = 'skip',
    ) => {
      const head = zh
        ? `任务开始：写${chapterRange(from, to, lang)}。`
        : `Job started: ${chapterRange(from, to, lang)}.`;
      if (!existing.length) return head;
      const list = chapterList(existing, lang);
      const one = existing.length === 1;
      const what = {
        skip: zh
          ? `${list}已经有正文，保持原样、跳过。`
          : `${list} already ${one ? 'has' : 'have'} text and ${one ? 'is' : 'are'} left as ${one ? 'it is' : 'they are'}.`,
        revise: zh
          ? `${list}已经有正文，会在原文上修改。`
          : `${list} already ${one ? 'has' : 'have'} text and will be revised in place.`,
        rewrite: zh
          ? `${list}已经有正文，会重写（你自己写的章节要先经你同意）。`
          : `${list} already ${one ? 'has' : 'have'} text and will be rewritten (a chapter you wrote yourself only with your approval).`,
      }[mode];
      return zh ? `${head}${what}` : `${head} ${capital(what)}`;
    },
    skipped: (n: number) => (zh ? `${ch(n)}已经有正文，保持原样。` : `Chapter ${n} already has text: left as it is.`),
    revisingExisting: (n: number) => (zh ? `正在修改已有的${ch(n)}。` : `Revising the existing chapter ${n}.`),
    restarted: (at: number) => (zh ? `任务从${ch(at)}重新开始。` : `Job restarted at chapter ${at}.`),
  };
}

/** A job pauses and resumes: when the author asks, or when its token or cost budget would be exceeded. */
function pauseWords(lang: Language) {
  const zh = lang === 'zh';
  const ch = (n: number) => chapterList([n], lang);
  return {
    pausing: () => (zh ? '正在暂停：先写完当前这一章。' : 'Pausing: the chapter being written is finished first.'),
    pauseWithdrawn: () => (zh ? '已取消暂停，继续写。' : 'Pause withdrawn: the job goes on.'),
    paused: (before: number) => (zh ? `已在${ch(before)}之前暂停。` : `Paused before chapter ${before}.`),
    resumed: (at: number) => (zh ? `从${ch(at)}继续。` : `Resumed at chapter ${at}.`),
    budgetPaused: (before: number, budget: number, used: number, perChapter: number) =>
      zh
        ? `已在${ch(before)}之前暂停：再写会超出 ${budget} 令牌的预算（已用 ${used}，每章约 ${perChapter}）。提高令牌预算后继续。`
        : `Paused before chapter ${before}: token budget ${budget} would be exceeded (${used} used, about ${perChapter} per chapter). Raise the token budget and resume to go on.`,
    budgetResumed: (at: number, budget: number | null) =>
      zh
        ? `从${ch(at)}继续（令牌预算：${budget ?? '不限'}）。`
        : `Resumed at chapter ${at} (token budget ${budget ?? 'lifted'}).`,
    costBudgetPaused: (before: number, budget: number, used: number, perChapter: number) =>
      zh
        ? `已在${ch(before)}之前暂停：再写会超出 ${usd(budget)} 的费用预算（已用 ${usd(used)}，每章约 ${usd(perChapter)}）。提高费用预算后继续。`
        : `Paused before chapter ${before}: cost budget ${usd(budget)} would be exceeded (${usd(used)} spent, about ${usd(perChapter)} per chapter). Raise the cost budget and resume to go on.`,
    costBudgetResumed: (at: number, budget: number | null) =>
      zh
        ? `从${ch(at)}继续（费用预算：${budget === null ? '不限' : usd(budget)}）。`
        : `Resumed at chapter ${at} (cost budget ${budget === null ? 'lifted' : usd(budget)}).`,
  };
}

/** The work on the outline and the chapters: planning, writing, revising, retrying. */
function chapterWords(lang: Language) {
  const zh = lang === 'zh';
  const ch = (n: number) => chapterList([n], lang);
  return {
    retrying: (chapter: number | null) =>
      chapter === null
        ? zh
          ? '重新规划大纲。'
          : 'Retrying the outline.'
        : zh
          ? `重写${ch(chapter)}。`
          : `Retrying chapter ${chapter}.`,
    planning: (count: number, missing: string) =>
      zh
        ? `先规划大纲：第${missing}章还没有条目。`
        : `Planning the outline: ${count === 1 ? `chapter ${missing} has` : `chapters ${missing} have`} no entry.`,
    outlineStillMissing: (count: number, missing: string) =>
      zh
        ? `大纲里第${missing}章仍没有条目，将按故事发展来写。`
        : `The outline still has no entry for ${count === 1 ? `chapter ${missing}; it follows` : `chapters ${missing}; they follow`} the story.`,
    chapterWritten: (n: number, title: string, words: number) =>
      zh
        ? `${ch(n)}写好了：《${title}》（${words}字）。`
        : `Chapter ${n} written: "${title}" (${words} ${words === 1 ? 'word' : 'words'}).`,
    writing: (n: number) => (zh ? `正在写${ch(n)}。` : `Writing chapter ${n}.`),
    revising: (n: number, round: number) =>
      zh ? `正在修改${ch(n)}（第${round}轮）。` : `Revising chapter ${n} (round ${round}).`,
  };
}

/** How a job ends: completed, cancelled, or stopped on a chapter and waiting to be resumed. */
function endWords(lang: Language) {
  const zh = lang === 'zh';
  const ch = (n: number) => chapterList([n], lang);
  return {
    completed: (done: number) =>
      zh ? `任务完成：写好了${chapters(done, lang)}。` : `Job completed: ${chapters(done, lang)} written.`,
    cancelled: (done: number) =>
      done === 0
        ? zh
          ? '任务已取消，还没有写完的章节。'
          : 'Job cancelled before any chapter was finished.'
        : zh
          ? `任务已取消，已写好的${chapters(done, lang)}都保留。`
          : `Job cancelled; the ${done === 1 ? 'finished chapter is' : `${done} finished chapters are`} kept.`,
    /** The job stopped on a chapter (null: the outline) and waits: why, in words, and what resuming does. */
    failed: (chapter: number | null, reason: JobFailureReason) => {
      const what = chapter === null ? (zh ? '大纲' : 'The outline') : zh ? ch(chapter) : `Chapter ${chapter}`;
      const why = {
        turn_failed: zh ? '写作中途出错' : 'the writing stopped on an error',
        interrupted: zh ? '写作被中断了' : 'the writing was interrupted',
        cut_off: zh ? '模型的回答到了长度上限，被截断了' : "the model's answer was cut off at its length limit",
        no_draft: zh ? '没有留下有正文的草稿' : 'no draft with text was saved',
        error: zh ? '出了错' : 'something went wrong',
      }[reason];
      return zh
        ? `${what}没能完成：${why}。恢复任务即可重试。`
        : `${what} could not be finished: ${why}. Resume the job to try again.`;
    },
  };
}

/** The job's item on the project's task board: its title and its progress. */
function taskWords(lang: Language) {
  const zh = lang === 'zh';
  const ch = (n: number) => chapterList([n], lang);
  return {
    /** The job's item on the project's task board: its range. */
    taskTitle: (from: number, to: number) =>
      zh ? chapterRange(from, to, lang) : capital(chapterRange(from, to, lang)),
    /** The job's item's progress: chapters written, and how the job stands when it is not simply running. */
    taskProgress: (done: number, total: number, status: string, failedChapter: number | null = null) => {
      const count = zh ? `已写 ${done}/${total} 章` : `${done}/${total} chapters written`;
      const note = {
        pausing: zh ? '正在暂停' : 'pausing',
        paused: zh ? '任务已暂停' : 'job paused',
        failed:
          failedChapter === null
            ? zh
              ? '任务停下了，等待恢复'
              : 'job stopped; resume it to go on'
            : zh
              ? `任务停在${ch(failedChapter)}，等待恢复`
              : `job stopped at chapter ${failedChapter}; resume it to go on`,
        cancelled: zh ? '任务已取消' : 'job cancelled',
      }[status];
      return note ? `${count}${zh ? '；' : '; '}${note}` : count;
    },
  };
}

/** The messages a job posts as it goes (job_progress `message`, its closing session message, its task on the board). */
export function jobWords(lang: Language) {
  return { ...startWords(lang), ...pauseWords(lang), ...chapterWords(lang), ...endWords(lang), ...taskWords(lang) };
}

/**
 * What a person reads about the team's work: handoffs and job messages are plain
 * sentences in the author's language, singular and plural right, never a bare machine kind.
 */
import { TurnRenderer } from '../../src/cli/render';
import { agentName, chapters, handoffText, jobWords } from '../../src/core/author-words';
import { draft, makeEvent } from '../../src/core/events';

describe('handoff sentences', () => {
  it('a writer continuing its own chapter reads as carrying on, not "writer hands over to writer (continuation)"', () => {
    const text = handoffText({ from: 'writer', to: 'writer', kind: 'continuation', reason: 'continuation' }, 'en');
    expect(text).toBe('The writer carries on where it stopped.');
    expect(handoffText({ from: 'writer', to: 'writer', kind: 'continuation', reason: 'continuation' }, 'zh')).toBe(
      '写手接着往下写。',
    );
  });

  it('an explicit handoff names both agents and keeps the reason, in either language', () => {
    expect(
      handoffText({ from: 'planner', to: 'writer', kind: 'explicit', reason: 'Outline ready; draft chapter 1.' }, 'en'),
    ).toBe('The planner hands over to the writer: Outline ready; draft chapter 1.');
    expect(handoffText({ from: 'planner', to: 'writer', kind: 'explicit', reason: '大纲好了，写第一章。' }, 'zh')).toBe(
      '策划把工作交给写手：大纲好了，写第一章。',
    );
  });

  it('every kind reads as a sentence without its machine name', () => {
    for (const kind of [
      'explicit',
      'planned',
      'review_gate',
      'continuation',
      'planner_repair',
      'empty_file_repair',
    ] as const)
      for (const lang of ['en', 'zh'] as const) {
        const text = handoffText({ from: 'planner', to: 'quality_reviewer', kind, reason: kind }, lang);
        expect(text).not.toContain(kind);
        expect(text).not.toContain('quality_reviewer');
        expect(text).toMatch(lang === 'en' ? /^[A-Z].*\.$/ : /。$/);
      }
  });

  it('agents have names people use', () => {
    expect(agentName('quality_reviewer', 'en', true)).toBe('The reviewer');
    expect(agentName('hook_designer', 'en')).toBe('the hook designer');
  });
});

describe('job messages', () => {
  it('count chapters in the singular and plural', () => {
    expect(chapters(1, 'en')).toBe('1 chapter');
    expect(chapters(3, 'en')).toBe('3 chapters');
    const en = jobWords('en');
    expect(en.completed(1)).toBe('Job completed: 1 chapter written.');
    expect(en.completed(4)).toBe('Job completed: 4 chapters written.');
    expect(en.cancelled(1)).toBe('Job cancelled; the finished chapter is kept.');
    expect(en.cancelled(2)).toBe('Job cancelled; the 2 finished chapters are kept.');
    expect(en.cancelled(0)).toBe('Job cancelled before any chapter was finished.');
    expect(en.planning(1, '3')).toBe('Planning the outline: chapter 3 has no entry.');
    expect(en.planning(2, '3–4')).toBe('Planning the outline: chapters 3–4 have no entry.');
    expect(en.started(2, 2)).toBe('Job started: chapter 2.');
    expect(en.chapterWritten(1, 'Dawn', 1)).toBe('Chapter 1 written: "Dawn" (1 word).');
    expect(en.taskTitle(1, 3)).toBe('Chapters 1–3');
    expect(en.taskProgress(3, 3, 'completed')).toBe('3/3 chapters written');
    expect(en.taskProgress(1, 4, 'failed', 2)).toBe(
      '1/4 chapters written; job stopped at chapter 2; resume it to go on',
    );
    expect(en.costBudgetPaused(3, 1, 0.9, 0.4)).not.toMatch(/maxCostUsd/);
  });

  it('speak Chinese to a Chinese author', () => {
    const zh = jobWords('zh');
    // Chinese chapter forms as people write them: 第6–8章, no spaces, full-width punctuation.
    expect(zh.started(1, 3)).toBe('任务开始：写第1–3章。');
    expect(zh.started(6, 8, [7], 'skip')).toBe('任务开始：写第6–8章。第7章已经有正文，保持原样、跳过。');
    expect(zh.completed(3)).toBe('任务完成：写好了3章。');
    expect(zh.paused(2)).toBe('已在第2章之前暂停。');
    expect(zh.chapterWritten(2, '黎明', 3012)).toBe('第2章写好了：《黎明》（3012字）。');
    expect(zh.taskTitle(6, 8)).toBe('第6–8章');
    expect(zh.taskProgress(1, 3, 'cancelled')).toBe('已写 1/3 章；任务已取消');
    expect(zh.budgetPaused(3, 1000, 900, 400)).not.toMatch(/maxTokens|token/);
    for (const text of [zh.pausing(), zh.resumed(2), zh.retrying(null), zh.writing(1), zh.cancelled(2)])
      expect(text).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('the chat CLI prints the sentences', () => {
  function rendered(...events: Parameters<typeof draft>[]): string {
    let out = '';
    const r = new TurnRenderer({ write: (s) => (out += s), tty: false });
    events.forEach(([type, data, env], i) =>
      r.event(makeEvent(draft(type, data as never, env) as never, i + 1, 'now')),
    );
    return out;
  }

  it('a handoff card reads as its sentence (or one made from its fields on an older stream)', () => {
    const text = 'The writer carries on where it stopped.';
    expect(
      rendered([
        'handoff',
        { from: 'writer', to: 'writer', kind: 'continuation', reason: 'continuation', text },
        { turnId: 't' },
      ]),
    ).toContain(`→ ${text}`);
    const old = rendered([
      'handoff',
      { from: 'writer', to: 'writer', kind: 'continuation', reason: 'continuation' },
      { turnId: 't' },
    ]);
    expect(old).toContain('→ The writer carries on where it stopped.');
    expect(old).not.toContain('(continuation)');
  });

  it('an agent starting reads by its name, without the routing jargon', () => {
    const out = rendered([
      'agent_selected',
      { agent: 'quality_reviewer', reason: 'routing: rule', plan: 'standard', run: 2 },
      { turnId: 't', agent: 'quality_reviewer' },
    ]);
    expect(out).toContain('▶ The reviewer · standard plan');
    expect(out).not.toContain('routing: rule');
  });

  it('job progress shows the job’s message and how far it is', () => {
    const out = rendered([
      'job_progress',
      {
        chapter: 1,
        of: 3,
        from: 1,
        to: 3,
        chaptersDone: 1,
        status: 'running',
        words: 900,
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        message: 'Chapter 1 written: "Dawn" (900 words).',
      },
      { jobId: 'j' },
    ]);
    expect(out).toContain('▣ Chapter 1 written: "Dawn" (900 words). (1 of 3 done)');
  });
});

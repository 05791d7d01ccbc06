/** The board's tools above the chapters: the book's word goal and progress, the per-chapter goal, and adding a chapter. */
import { useState } from 'react';
import { findUnitRefs } from '../../../src/core/words/numerals';
import { renumberTitle } from '../../../src/core/book/chapter-order';
import { fmt, useI18n } from '../i18n';
import { GoalMeter } from './BoardRow';
import type { BoardData, BoardItem, ProjectChanges } from './manuscript-api';

const goalValue = (s: string): number | null => (s.trim() ? Math.max(1, Math.round(Number(s))) : null);

export function BoardGoals({
  data,
  onSave,
  busy,
}: {
  data: BoardData;
  onSave: (goals: ProjectChanges) => Promise<boolean>;
  busy: boolean;
}) {
  const { t } = useI18n();
  const [book, setBook] = useState(data.wordGoal ? String(data.wordGoal) : '');
  const [chapter, setChapter] = useState(data.chapterWordGoal ? String(data.chapterWordGoal) : '');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void onSave({ wordGoal: goalValue(book), chapterWordGoal: goalValue(chapter) });
  };
  return (
    <div className="board-goals card">
      <div className="board-book-goal" data-testid="book-goal">
        <strong>{t.bookGoal}</strong>{' '}
        {data.wordGoal ? (
          <GoalMeter words={data.totals.words} goal={data.wordGoal} label={t.bookGoal} />
        ) : (
          <span className="muted small">{t.noGoal}</span>
        )}
      </div>
      <details>
        <summary>{t.setGoals}</summary>
        <form className="row goals-form" onSubmit={submit}>
          <label>
            {t.bookGoalLabel}
            <input type="number" min={1} inputMode="numeric" value={book} onChange={(e) => setBook(e.target.value)} />
          </label>
          <label>
            {t.chapterGoalLabel}
            <input
              type="number"
              min={1}
              inputMode="numeric"
              value={chapter}
              onChange={(e) => setChapter(e.target.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {t.saveGoals}
          </button>
        </form>
      </details>
    </div>
  );
}

/** The title a new chapter gets: the next number, in the style of the last numbered chapter ("第四章", "Chapter 5"). */
export function nextChapterTitle(items: BoardItem[], lang: 'en' | 'zh'): string {
  const numbered = items.filter((i) => i.fileId && i.number !== null);
  const last = numbered[numbered.length - 1];
  const next = (numbered.reduce((m, i) => Math.max(m, i.number!), 0) || 0) + 1;
  if (last) {
    const ref = findUnitRefs(last.title)[0];
    const label = ref ? renumberTitle(last.title.slice(ref.start, ref.end), next) : null;
    if (label) return label;
  }
  return lang === 'zh' ? `第${next}章` : `Chapter ${next}`;
}

export function NewChapter({
  items,
  busy,
  onAdd,
}: {
  items: BoardItem[];
  busy: boolean;
  onAdd: (title: string) => Promise<boolean>;
}) {
  const { t, lang } = useI18n();
  const suggested = nextChapterTitle(items, lang);
  const [title, setTitle] = useState('');
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (await onAdd(title.trim() || suggested)) setTitle('');
  };
  return (
    <form className="row new-chapter" onSubmit={(e) => void submit(e)}>
      <label>
        {t.newChapterTitle}
        <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder={suggested} maxLength={200} />
      </label>
      <button type="submit" disabled={busy}>
        {fmt(t.addChapter, { title: title.trim() || suggested })}
      </button>
    </form>
  );
}

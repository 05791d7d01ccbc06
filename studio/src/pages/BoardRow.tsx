/**
 * One chapter on the board: its number, title (a link to the file), the outline's synopsis,
 * its status, words against its goal, and what the author can do with it — move it up or
 * down (or drag it), edit its title, goal and place, delete it to the trash; a chapter only
 * the outline has can be started as a file.
 */
import { useState } from 'react';
import { fmt, tk, useI18n } from '../i18n';
import { formatNumber } from './numbers';
import { href, navigate } from '../router';
import type { BoardItem } from './manuscript-api';

export interface RowActions {
  move: (fileId: string, to: number) => void;
  save: (item: BoardItem, changes: { title?: string; wordGoal?: number | null; place?: number }) => Promise<boolean>;
  remove: (item: BoardItem) => void;
  start: (item: BoardItem) => void;
}

interface RowProps {
  projectId: string;
  item: BoardItem;
  /** Index among the chapter files (null for a planned entry), and how many files there are. */
  fileIndex: number | null;
  fileCount: number;
  goal: number | null;
  locked: boolean;
  /** What the running job does with this chapter: writes it now, writes it later, or nothing. */
  jobWrites: 'now' | 'later' | null;
  busy: boolean;
  actions: RowActions;
}

export function GoalMeter({ words, goal, label }: { words: number; goal: number | null; label: string }) {
  const { t, lang } = useI18n();
  const n = (x: number) => formatNumber(x, lang);
  if (!goal) return <span className="board-words">{fmt(t.boardWords, { n: n(words) })}</span>;
  const met = words >= goal;
  return (
    <span className={`board-words${met ? ' goal-met' : ''}`} data-goal-met={met ? 'true' : 'false'}>
      <span>
        {fmt(t.goalOf, { n: n(words), goal: n(goal) })}
        {met && <span className="goal-check"> ✓ {t.goalMet}</span>}
      </span>
      <progress
        value={Math.min(words, goal)}
        max={goal}
        aria-label={fmt(t.goalProgressLabel, { what: label, pct: Math.floor((100 * words) / goal) })}
      />
    </span>
  );
}

function EditPanel({
  item,
  fileIndex,
  fileCount,
  onSave,
  onCancel,
  busy,
}: {
  item: BoardItem;
  fileIndex: number;
  fileCount: number;
  onSave: RowActions['save'];
  onCancel: () => void;
  busy: boolean;
}) {
  const { t } = useI18n();
  const [title, setTitle] = useState(item.title);
  const [goal, setGoal] = useState(item.wordGoal ? String(item.wordGoal) : '');
  const [place, setPlace] = useState(String(fileIndex + 1));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const wanted = goal.trim() ? Math.round(Number(goal)) : null;
    const ok = await onSave(item, {
      ...(title.trim() !== item.title ? { title: title.trim() } : {}),
      ...(wanted !== item.wordGoal ? { wordGoal: wanted } : {}),
      ...(Number(place) - 1 !== fileIndex ? { place: Number(place) - 1 } : {}),
    });
    if (ok) onCancel();
  };
  return (
    <form className="board-edit" onSubmit={(e) => void submit(e)} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <label className="grow">
        {t.chapterTitle}
        <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} autoFocus />
      </label>
      <label>
        {t.chapterGoal} <span className="muted small">{t.optional}</span>
        <input type="number" min={1} inputMode="numeric" value={goal} onChange={(e) => setGoal(e.target.value)} />
      </label>
      <label>
        {t.chapterPlace}
        <input
          type="number"
          min={1}
          max={fileCount}
          inputMode="numeric"
          value={place}
          onChange={(e) => setPlace(e.target.value)}
          required
        />
      </label>
      <div className="row">
        <button type="submit" disabled={busy}>
          {t.save}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}

function Actions({
  item,
  fileIndex,
  fileCount,
  locked,
  jobWrites,
  busy,
  actions,
  onEdit,
}: Omit<RowProps, 'projectId' | 'goal'> & { onEdit: () => void }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  if (fileIndex === null)
    return (
      <div className="board-actions">
        {/* A chapter the running job is about to write is not started by hand: two files would name it. */}
        {jobWrites ? (
          <span className="small muted" data-job-writes={jobWrites}>
            {jobWrites === 'now' ? t.jobWritingThis : t.jobWillWriteThis}
          </span>
        ) : (
          <button type="button" className="small" onClick={() => actions.start(item)} disabled={busy}>
            {t.startChapter}
          </button>
        )}
      </div>
    );
  if (confirming)
    return (
      <div className="board-actions" role="group" aria-label={fmt(t.confirmTrashChapter, { title: item.title })}>
        <span className="small">{t.toTrashQuestion}</span>
        <button
          type="button"
          className="small danger"
          onClick={() => (setConfirming(false), actions.remove(item))}
          autoFocus
        >
          {t.moveToTrash}
        </button>
        <button type="button" className="small secondary" onClick={() => setConfirming(false)}>
          {t.cancel}
        </button>
      </div>
    );
  const id = item.fileId!;
  return (
    <div className="board-actions">
      <button
        type="button"
        className="small secondary icon"
        data-action="up"
        aria-label={fmt(t.moveUp, { title: item.title })}
        title={fmt(t.moveUp, { title: item.title })}
        onClick={() => actions.move(id, fileIndex - 1)}
        disabled={locked || busy || fileIndex === 0}
      >
        ↑
      </button>
      <button
        type="button"
        className="small secondary icon"
        data-action="down"
        aria-label={fmt(t.moveDown, { title: item.title })}
        title={fmt(t.moveDown, { title: item.title })}
        onClick={() => actions.move(id, fileIndex + 1)}
        disabled={locked || busy || fileIndex === fileCount - 1}
      >
        ↓
      </button>
      <button
        type="button"
        className="small secondary"
        data-action="edit"
        aria-label={fmt(t.editChapter, { title: item.title })}
        onClick={onEdit}
        disabled={busy}
      >
        {t.manuscriptEdit}
      </button>
      <button
        type="button"
        className="small danger"
        data-action="delete"
        aria-label={fmt(t.deleteChapter, { title: item.title })}
        title={jobWrites === 'now' ? t.jobWritingThis : undefined}
        onClick={() => setConfirming(true)}
        disabled={busy || jobWrites === 'now'}
      >
        {t.delete}
      </button>
    </div>
  );
}

export function BoardRow(props: RowProps) {
  const { t } = useI18n();
  const { projectId, item, fileIndex, fileCount, goal, locked, jobWrites, busy, actions } = props;
  const [editing, setEditing] = useState(false);
  const to = item.fileId ? href({ page: 'project', projectId, tab: 'file', sub: item.fileId }) : '';
  return (
    <div
      className={`board-row status-${item.status}`}
      data-board-file={item.fileId ?? undefined}
      data-status={item.status}
      data-number={item.number ?? undefined}
    >
      <span className="board-number" aria-hidden="true">
        {item.number ?? '·'}
      </span>
      <div className="board-main">
        {item.fileId ? (
          <a
            href={to}
            className="board-title"
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              navigate(to);
            }}
          >
            {item.title}
          </a>
        ) : (
          <span className="board-title planned-title">{item.title}</span>
        )}
        <span className="board-synopsis muted small" title={item.synopsis || undefined}>
          {item.synopsis || (item.status === 'planned' && !item.fileId ? t.notInFiles : '')}
        </span>
      </div>
      <span className={`chip chip-${item.status}`}>{tk(t, `chapterStatus_${item.status}`)}</span>
      {item.fileId ? (
        <GoalMeter words={item.words} goal={goal} label={item.title} />
      ) : (
        <span className="board-words muted">—</span>
      )}
      <Actions
        item={item}
        fileIndex={fileIndex}
        fileCount={fileCount}
        locked={locked}
        jobWrites={jobWrites}
        busy={busy}
        actions={actions}
        onEdit={() => setEditing((x) => !x)}
      />
      {editing && fileIndex !== null && (
        <EditPanel
          item={item}
          fileIndex={fileIndex}
          fileCount={fileCount}
          onSave={actions.save}
          onCancel={() => setEditing(false)}
          busy={busy}
        />
      )}
    </div>
  );
}

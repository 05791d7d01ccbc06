/**
 * The board of the manuscript: every chapter in order — planned (from the outline), drafted,
 * reviewed — with its words against its goal and the outline's one-line synopsis; the
 * book's goal; and the author's hand on the order: add, rename, move (buttons, drag and
 * drop, or a place number; numbered titles follow: "Chapter 3" moved second becomes
 * "Chapter 2"), delete to the trash (with undo). A long book scrolls as a virtualised list.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../api';
import { keepChapterNumber } from '../../../src/core/book/chapter-order';
import { fmt, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { formatNumber } from './numbers';
import { authorError } from './author-errors';
import { BoardGoals, NewChapter } from './BoardTools';
import { BoardRow, type RowActions } from './BoardRow';
import { jobWritesOf } from './job-chapters';
import {
  type BoardData,
  type BoardItem,
  chapterGoal,
  createChapter,
  loadBoard,
  moveChapter,
  patchFile,
  type ReorderResult,
  renumberChapters,
  trashFile,
  undeleteFile,
  updateProject,
} from './manuscript-api';
import { useProject } from './Project';

/** What the last action did, said to the author (with an undo for a delete). */
interface Notice {
  text: string;
  undo?: () => void;
  /** A chapter just made: a link to open it. */
  open?: string;
  error?: boolean;
}

/** Numbers 1…N (or 0…N-1) in order, once each: nothing to renumber. */
function inSequence(items: BoardItem[]): boolean {
  const numbers = items.filter((i) => i.fileId && i.number !== null).map((i) => i.number!);
  const start = numbers[0] === 0 ? 0 : 1;
  return numbers.every((n, i) => n === start + i);
}

/**
 * The board's data, kept current while the author looks at it: reloaded when the manuscript
 * list changes (a turn or a job wrote, renamed or deleted a chapter) and every 20 s (a review
 * changes a status without writing any file; 60 s for a book of hundreds of chapters).
 */
function useBoard(projectId: string) {
  const { t } = useI18n();
  const { files, filesComplete } = useProject();
  const [data, setData] = useState<BoardData | null>(null);
  const [error, setError] = useState('');
  const reload = useCallback(
    () =>
      loadBoard(projectId)
        .then((b) => (setData(b), setError('')))
        .catch((e: unknown) => setError(authorError(e, t))),
    [projectId, t],
  );
  const signature = useMemo(
    () => (filesComplete ? files.map((f) => `${f.id}:${f.version}:${f.title}:${f.wordGoal ?? ''}`).join('|') : ''),
    [files, filesComplete],
  );
  useEffect(() => {
    void reload();
  }, [reload, signature]);
  const large = (data?.items.length ?? 0) > 300;
  useEffect(() => {
    const timer = window.setInterval(() => document.hidden || void reload(), large ? 60_000 : 20_000);
    return () => window.clearInterval(timer);
  }, [reload, large]);
  return { data, error, reload };
}

function BoardList({
  projectId,
  data,
  busy,
  actions,
}: {
  projectId: string;
  data: BoardData;
  busy: boolean;
  actions: RowActions;
}) {
  const { t } = useI18n();
  const scroller = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const fileIndex = useMemo(() => {
    let k = 0;
    return data.items.map((i) => (i.fileId ? k++ : null));
  }, [data.items]);
  const fileCount = data.totals.files;
  const locked = !!data.writingJob;
  const virtualizer = useVirtualizer({
    count: data.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 12,
  });

  const drop = (target: number | null) => {
    if (dragging && target !== null) actions.move(dragging, target);
    setDragging(null);
    setOver(null);
  };
  return (
    <div ref={scroller} className="board-scroll" data-testid="board-scroll">
      <ol className="board-list" style={{ height: virtualizer.getTotalSize() }} aria-label={t.boardListLabel}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = data.items[v.index]!;
          const index = fileIndex[v.index]!;
          const draggable = !!item.fileId && !locked && !busy;
          return (
            <li
              key={item.fileId ?? `planned-${item.number}`}
              data-index={v.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${v.start}px)` }}
              aria-posinset={v.index + 1}
              aria-setsize={data.items.length}
              className={over === v.index && dragging ? 'drop-target' : undefined}
              draggable={draggable}
              onDragStart={(e) => {
                if (!draggable) return;
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', item.fileId!);
                setDragging(item.fileId);
              }}
              onDragEnd={() => (setDragging(null), setOver(null))}
              onDragOver={(e) => {
                if (!dragging || index === null) return;
                e.preventDefault();
                setOver(v.index);
              }}
              onDrop={(e) => {
                e.preventDefault();
                drop(index);
              }}
            >
              <BoardRow
                projectId={projectId}
                item={item}
                fileIndex={index}
                fileCount={fileCount}
                goal={chapterGoal(item, data)}
                locked={locked}
                jobWrites={jobWritesOf(item, data.writingJob)}
                busy={busy}
                actions={actions}
              />
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** What a move or renumbering did, in words. */
/** Sentences one after the other: with a space in English, none after Chinese full stops. */
const sentences = (parts: string[], lang: string): string => parts.join(lang === 'zh' ? '' : ' ');

function reorderText(t: ReturnType<typeof useI18n>['t'], lang: string, r: ReorderResult, hasOutline: boolean): string {
  const said = [
    r.renamed.length
      ? fmt(r.renamed.length === 1 ? t.renumberedOne : t.renumberedMany, {
          n: r.renamed.length,
          list: r.renamed.map((x) => `${x.from} → ${x.to}`).join(t.listSep),
        })
      : t.movedNoRename,
  ];
  if (r.skipped.length) said.push(fmt(t.renameSkipped, { n: r.skipped.length }));
  // The outline is the author's (or the planner's) text: a move does not rewrite it.
  if (r.renamed.length && hasOutline) said.push(t.outlineNotChanged);
  return sentences(said, lang);
}

export function BoardPage({ projectId }: { projectId: string }) {
  const { t, lang } = useI18n();
  const { project, reloadFiles, reloadProject } = useProject();
  const { data, error, reload } = useBoard(projectId);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const n = (x: number) => formatNumber(x, lang);
  const hasOutline = !!data?.outlines.length;

  /** Runs a change, then reloads the board and the tree; says what happened or what went wrong. */
  const act = useCallback(
    async (what: () => Promise<Notice | null>): Promise<boolean> => {
      setBusy(true);
      try {
        const said = await what();
        await reload();
        reloadFiles();
        setNotice(said);
        return true;
      } catch (e) {
        setNotice({ text: authorError(e, t), error: true });
        // Gone meanwhile (another tab, an agent): show the board as it is now.
        if (e instanceof ApiError && e.status === 404) void reload();
        return false;
      } finally {
        setBusy(false);
      }
    },
    [reload, reloadFiles, t],
  );

  const addChapter = async (title: string): Promise<Notice> => {
    const made = await createChapter(projectId, project.type === 'screenplay' ? 'script' : 'draft', title);
    return { text: fmt(t.chapterAdded, { title }), open: made.id };
  };

  const actions: RowActions = {
    move: (fileId, to) =>
      void act(async () => ({ text: reorderText(t, lang, await moveChapter(projectId, fileId, to), hasOutline) })),
    save: (item, changes) =>
      act(async () => {
        const said: string[] = [];
        // A renamed chapter keeps its number unless the new title names one: its place in the book.
        const title = changes.title !== undefined ? keepChapterNumber(item.title, changes.title) : undefined;
        if (title !== undefined || changes.wordGoal !== undefined) {
          await patchFile(item.fileId!, {
            ...(title !== undefined ? { title } : {}),
            ...(changes.wordGoal !== undefined ? { wordGoal: changes.wordGoal } : {}),
          });
          said.push(fmt(t.chapterSaved, { title: title ?? item.title }));
        }
        if (changes.place !== undefined)
          said.push(reorderText(t, lang, await moveChapter(projectId, item.fileId!, changes.place), hasOutline));
        return { text: sentences(said, lang) };
      }),
    remove: (item) =>
      void act(async () => {
        await trashFile(item.fileId!);
        return {
          text: fmt(t.chapterTrashed, { title: item.title }),
          undo: () =>
            void act(
              async () => (await undeleteFile(item.fileId!), { text: fmt(t.chapterRestored, { title: item.title }) }),
            ),
        };
      }),
    start: (item) => void act(() => addChapter(item.suggestedTitle ?? item.title)),
  };

  if (error && !data)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!data) return <p>{t.loading}</p>;
  const { totals } = data;
  return (
    <section className="board-page" aria-labelledby="board-h" data-testid="board">
      <div className="board-head">
        <h2 id="board-h">{t.boardTitle}</h2>
        <p className="muted small" data-testid="board-totals">
          {fmt(t.boardTotals, {
            chapters: n(totals.chapters),
            reviewed: n(totals.reviewed),
            drafted: n(totals.drafted),
            planned: n(totals.planned),
            words: n(totals.words),
          })}
        </p>
      </div>
      <BoardGoals
        data={data}
        onSave={(goals) =>
          act(async () => {
            await updateProject(projectId, goals);
            reloadProject();
            return { text: t.goalsSaved };
          })
        }
        busy={busy}
      />
      {data.writingJob && <p className="notice small">{t.jobLocksOrder}</p>}
      <div className="row board-tools">
        <NewChapter items={data.items} busy={busy} onAdd={(title) => act(() => addChapter(title))} />
        {!inSequence(data.items) && (
          <button
            type="button"
            className="secondary small"
            disabled={busy || !!data.writingJob}
            onClick={() =>
              void act(async () => ({ text: reorderText(t, lang, await renumberChapters(projectId), hasOutline) }))
            }
          >
            {t.renumberAll}
          </button>
        )}
      </div>
      <p role="status" className={`small board-notice${notice?.error ? ' error' : ''}`} data-testid="board-notice">
        {notice?.text}
        {notice?.open && (
          <>
            {' '}
            <a
              href={href({ page: 'project', projectId, tab: 'file', sub: notice.open })}
              onClick={(e) => (
                e.preventDefault(),
                navigate(href({ page: 'project', projectId, tab: 'file', sub: notice.open! }))
              )}
            >
              {t.openChapter}
            </a>
          </>
        )}
        {notice?.undo && (
          <>
            {' '}
            <button type="button" className="link" onClick={notice.undo}>
              {t.manuscriptUndo}
            </button>
          </>
        )}
      </p>
      {data.items.length === 0 ? (
        <p className="muted">{t.boardEmpty}</p>
      ) : (
        <BoardList projectId={projectId} data={data} busy={busy} actions={actions} />
      )}
    </section>
  );
}

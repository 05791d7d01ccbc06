/**
 * The manuscript tree: every file of the project in the manuscript's order, grouped by type,
 * as one virtualised list (only the rows in view are in the page, so a book of 1,000 chapters
 * scrolls like one of ten). Each group says how many files it has, from the list's counts,
 * and rows whose page has not arrived yet show as placeholders: the tree is never cut.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { inTreeOrder, TREE_TYPE_ORDER } from '../../../src/core/book/chapter-order';
import { fmt, tk, useI18n } from '../i18n';
import { formatNumber } from './numbers';
import { href, navigate } from '../router';
import type { TreeFile } from './manuscript-api';
import type { ProjectFiles } from './project-files';

type Row = { kind: 'group'; type: string; count: number } | { kind: 'file'; index: number };

const GROUP_HEIGHT = 34;
const FILE_HEIGHT = 28;

/** Header and file rows of every group, from the counts (files not loaded yet still have rows). */
export function treeRows(counts: ProjectFiles['counts']): Row[] {
  const rows: Row[] = [];
  let index = 0;
  for (const type of TREE_TYPE_ORDER) {
    const count = counts[type] ?? 0;
    if (!count) continue;
    rows.push({ kind: 'group', type, count });
    for (let i = 0; i < count; i++) rows.push({ kind: 'file', index: index++ });
  }
  return rows;
}

/** Files grouped in the tree's order (the core's, which the API pages in too), whatever order they come in. */
export function treeGroups(files: TreeFile[]) {
  const ordered = inTreeOrder(files);
  return TREE_TYPE_ORDER.map((type) => ({ type, list: ordered.filter((f) => f.type === type) })).filter(
    (g) => g.list.length,
  );
}

function go(e: React.MouseEvent, to: string) {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(to);
}

export function FileTree({ projectId, list, current }: { projectId: string; list: ProjectFiles; current?: string }) {
  const { t, lang } = useI18n();
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => treeRows(list.counts), [list.counts]);
  const number = (n: number) => formatNumber(n, lang);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]!.kind === 'group' ? GROUP_HEIGHT : FILE_HEIGHT),
    overscan: 10,
  });

  // The open file is in view, even when it is chapter 900 of a long book (a search hit opened it).
  const currentRow = current ? rows.findIndex((r) => r.kind === 'file' && list.files[r.index]?.id === current) : -1;
  useEffect(() => {
    if (currentRow >= 0) virtualizer.scrollToIndex(currentRow, { align: 'auto' });
  }, [currentRow, virtualizer]);

  const chapters = (list.counts.draft ?? 0) + (list.counts.script ?? 0);
  return (
    <nav aria-label={t.fileTree} className="tree" data-testid="file-tree">
      <h2>
        {t.fileTree} <span className="muted small tree-total">{fmt(t.treeTotal, { n: number(list.total) })}</span>
      </h2>
      {list.loaded && chapters > 0 && (
        <p className="muted small tree-count" data-testid="chapter-count">
          {fmt(chapters === 1 ? t.treeChapterOne : t.treeChapters, { n: number(chapters) })}
        </p>
      )}
      {list.loaded && list.total === 0 && <p className="muted small">{t.noFiles}</p>}
      {!list.loaded && !list.error && <p className="muted small">{t.loading}</p>}
      {list.loaded && !list.complete && (
        <p className="muted small" role="status">
          {fmt(t.treeLoadingMore, { shown: number(list.files.length), total: number(list.total) })}
        </p>
      )}
      {list.error && (
        <p role="alert" className="error small">
          {t.treeLoadFailed}
        </p>
      )}
      <div ref={scroller} className="tree-scroll" data-testid="tree-scroll">
        <ul style={{ height: virtualizer.getTotalSize() }} className="tree-rows">
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            const style = { transform: `translateY(${v.start}px)`, height: v.size };
            if (row.kind === 'group')
              return (
                <li
                  key={`g-${row.type}`}
                  style={style}
                  className="tree-group"
                  aria-posinset={v.index + 1}
                  aria-setsize={rows.length}
                >
                  <h3>
                    {tk(t, `type_${row.type}`)} <span className="tree-group-count">{number(row.count)}</span>
                  </h3>
                </li>
              );
            const f = list.files[row.index];
            if (!f)
              return (
                <li
                  key={`p-${row.index}`}
                  style={style}
                  className="tree-placeholder muted small"
                  aria-posinset={v.index + 1}
                  aria-setsize={rows.length}
                >
                  …
                </li>
              );
            const to = href({ page: 'project', projectId, tab: 'file', sub: f.id });
            return (
              <li key={f.id} style={style} aria-posinset={v.index + 1} aria-setsize={rows.length}>
                <a
                  href={to}
                  onClick={(e) => go(e, to)}
                  aria-current={current === f.id ? 'page' : undefined}
                  data-file-id={f.id}
                  title={f.title}
                >
                  <span className="file-title">{f.title}</span>
                  <span className="muted small file-words"> {number(f.words)}</span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}

/**
 * The project's files, page by page from the paged files list, in the manuscript's order.
 * The first page is small so the tree shows at once; the rest follows in large pages. The
 * first load shows each page as it lands (the tree knows the total and each group's size
 * from the first answer, and shows the rows still coming as placeholders); a refresh keeps
 * the list it has until the new one is whole, so the tree never shrinks to a partial list.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errText } from '../api';
import { filesPage, type FilesPage, type TreeFile } from './manuscript-api';

const FIRST_PAGE = 200;
const NEXT_PAGES = 1000;

export interface ProjectFiles {
  /** The files loaded so far, in order: the first `files.length` of `total`. */
  files: TreeFile[];
  total: number;
  counts: FilesPage['counts'];
  /** Every page is in. */
  complete: boolean;
  /** The first page has arrived. */
  loaded: boolean;
  error: string;
}

const EMPTY: ProjectFiles = { files: [], total: 0, counts: {}, complete: false, loaded: false, error: '' };

export function useProjectFiles(projectId: string): ProjectFiles & { reload: () => void } {
  const [state, setState] = useState<ProjectFiles>(EMPTY);
  const generation = useRef(0);
  const shown = useRef(false);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    const progressive = !shown.current;
    void (async () => {
      const seen = new Set<string>();
      const acc: TreeFile[] = [];
      let offset = 0;
      for (;;) {
        const page = await filesPage(projectId, offset, offset ? NEXT_PAGES : FIRST_PAGE);
        if (mine !== generation.current) return;
        // A file made between two pages shifts the rest by one: never list a file twice.
        for (const f of page.items) {
          if (seen.has(f.id)) continue;
          seen.add(f.id);
          acc.push(f);
        }
        const complete = page.nextOffset === null;
        if (progressive || complete) {
          shown.current = true;
          setState({ files: [...acc], total: page.total, counts: page.counts, complete, loaded: true, error: '' });
        }
        if (complete) return;
        offset = page.nextOffset!;
      }
    })().catch((err: unknown) => {
      if (mine === generation.current) setState((s) => ({ ...s, error: errText(err) }));
    });
  }, [projectId]);

  useEffect(() => {
    shown.current = false;
    setState(EMPTY);
    reload();
  }, [reload]);

  // Agents and jobs write while the author reads: the list catches up while the page is in
  // view — every 8 s, or every 30 s for a book of hundreds of files (each refresh reads the
  // whole list; an unchanged page costs a bodiless 304).
  const large = state.total > 300;
  useEffect(() => {
    const timer = window.setInterval(
      () => {
        if (!document.hidden) reload();
      },
      large ? 30_000 : 8000,
    );
    return () => window.clearInterval(timer);
  }, [reload, large]);

  return { ...state, reload };
}

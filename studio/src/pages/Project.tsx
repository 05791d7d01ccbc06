/**
 * One project: the manuscript tree on the left (always there, so chapters written by a turn
 * or a job appear as they land), and the chat, the board, search, a file, the jobs or the
 * trash beside it.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, authHeaders, API, get, type Project, errText } from '../api';
import { DrawerToggles, useDrawers } from '../drawers';
import { useI18n } from '../i18n';
import { href, navigate, type Route } from '../router';
import { ChatPage } from './Chat';
import { FilePage } from './FileView';
import { FileTree } from './FileTree';
import type { GoalProject, TreeFile } from './manuscript-api';
import { useProjectFiles } from './project-files';
import { RevealHit } from './reveal';
import { TrashPage } from './Trash';

export { treeGroups } from './FileTree';

const JobsPage = lazy(() => import('./Jobs').then((m) => ({ default: m.JobsPage })));
const BoardPage = lazy(() => import('./Board').then((m) => ({ default: m.BoardPage })));
const SearchPage = lazy(() => import('./Search').then((m) => ({ default: m.SearchPage })));

export interface ProjectCtx {
  project: GoalProject;
  /** The files loaded so far in the manuscript's order (all of them once `filesComplete`). */
  files: TreeFile[];
  /** How many files the project has (`files` may still be loading). */
  fileTotal: number;
  filesComplete: boolean;
  reloadFiles: () => void;
  reloadProject: () => void;
  refreshProject: () => void;
}
const Ctx = createContext<ProjectCtx | null>(null);
export const useProject = (): ProjectCtx => useContext(Ctx)!;

function go(e: React.MouseEvent, to: string) {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(to);
}

function ExportButtons({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const [error, setError] = useState('');
  // Always offered: a project with nothing to export answers 409 with words that say so.
  const download = async (format: string) => {
    setError('');
    const res = await fetch(`${API}/projects/${projectId}/export?format=${format}`, { headers: authHeaders() });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
      setError(body?.error?.code === 'nothing_to_export' ? t.nothingToExport : t.exportFailed);
      return;
    }
    const cd = res.headers.get('content-disposition') ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1];
    const plain = /filename="([^"]+)"/i.exec(cd)?.[1];
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = star ? decodeURIComponent(star) : (plain ?? `manuscript.${format}`);
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="export" role="group" aria-label={t.export}>
      <span className="muted small">{t.export}</span>
      {['md', 'epub', 'docx'].map((f) => (
        <button key={f} type="button" className="small" onClick={() => void download(f)}>
          {f.toUpperCase()}
        </button>
      ))}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}

export function ProjectPage({ route }: { route: Extract<Route, { page: 'project' }> }) {
  const { t } = useI18n();
  const { projectId } = route;
  const [project, setProject] = useState<Project | null>(null);
  const [error, setError] = useState('');
  const drawers = useDrawers(`${route.tab}/${route.sub ?? ''}`);
  const list = useProjectFiles(projectId);

  const reloadProject = useCallback(() => {
    get<Project>(`/projects/${projectId}`)
      .then(setProject)
      .catch((e: unknown) => setError(e instanceof ApiError && e.status === 404 ? 'gone' : errText(e)));
  }, [projectId]);
  useEffect(() => {
    reloadProject();
  }, [reloadProject]);
  /** A quiet read for a page that polls: a failure shows nothing (the next read tries again), and the same project renders nothing. */
  const refreshProject = useCallback(() => {
    get<Project>(`/projects/${projectId}`)
      .then((p) => setProject((old) => (old && JSON.stringify(old) === JSON.stringify(p) ? old : p)))
      .catch(() => undefined);
  }, [projectId]);

  const { files, total, complete, reload: reloadFiles } = list;
  const ctx = useMemo(
    () =>
      project
        ? { project, files, fileTotal: total, filesComplete: complete, reloadFiles, reloadProject, refreshProject }
        : null,
    [project, files, total, complete, reloadFiles, reloadProject, refreshProject],
  );
  if (error === 'gone')
    return (
      <main className="projects">
        <p role="alert">{t.projectGone}</p>
        <a href={href({ page: 'projects' })} onClick={(e) => go(e, href({ page: 'projects' }))}>
          ← {t.allProjects}
        </a>
      </main>
    );
  if (error)
    return (
      <main>
        <p role="alert" className="error">
          {error}
        </p>
      </main>
    );
  if (!ctx)
    return (
      <main>
        <p>{t.loading}</p>
      </main>
    );

  const tabs = [
    { tab: 'chat', label: t.chat },
    { tab: 'board', label: t.boardTab },
    { tab: 'search', label: t.searchTab },
    { tab: 'jobs', label: t.jobs },
    { tab: 'trash', label: t.trash },
  ] as const;
  return (
    <Ctx.Provider value={ctx}>
      <div className="project" data-drawer={drawers.open ?? undefined}>
        <aside className="side">
          <a href={href({ page: 'projects' })} onClick={(e) => go(e, href({ page: 'projects' }))} className="small">
            ← {t.allProjects}
          </a>
          <FileTree projectId={projectId} list={list} current={route.tab === 'file' ? route.sub : undefined} />
          <ExportButtons projectId={projectId} />
        </aside>
        <main className="main">
          <div className="project-head">
            <DrawerToggles drawers={drawers} tasks={route.tab === 'chat'} />
            <h1>{ctx.project.title}</h1>
            <nav aria-label={ctx.project.title} className="tabs">
              {tabs.map((x) => {
                const to = href({ page: 'project', projectId, tab: x.tab });
                return (
                  <a
                    key={x.tab}
                    href={to}
                    onClick={(e) => go(e, to)}
                    aria-current={route.tab === x.tab ? 'page' : undefined}
                  >
                    {x.label}
                  </a>
                );
              })}
            </nav>
          </div>
          {route.tab === 'chat' && <ChatPage projectId={projectId} sessionId={route.sub} />}
          {route.tab === 'file' && route.sub && (
            <>
              <FilePage key={route.sub} fileId={route.sub} />
              {route.at && <RevealHit key={`${route.sub}:${route.at.from}`} fileId={route.sub} at={route.at} />}
            </>
          )}
          {route.tab !== 'chat' && route.tab !== 'file' && (
            <Suspense fallback={<p>{t.loading}</p>}>
              {route.tab === 'board' && <BoardPage projectId={projectId} />}
              {route.tab === 'search' && <SearchPage projectId={projectId} query={route.q ?? ''} />}
              {route.tab === 'jobs' && <JobsPage projectId={projectId} jobId={route.sub} />}
              {route.tab === 'trash' && <TrashPage />}
            </Suspense>
          )}
        </main>
      </div>
    </Ctx.Provider>
  );
}

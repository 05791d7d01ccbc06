/**
 * One project: the manuscript tree on the left (always there, so chapters written by a turn
 * or a job appear as they land), and the chat, a file, the jobs or the trash beside it.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { authHeaders, API, type FileSummary, get, type Project, errText } from '../api';
import { DrawerToggles, useDrawers } from '../drawers';
import { tk, useI18n } from '../i18n';
import { href, navigate, type Route } from '../router';
import { unitOfTitle } from '../../../src/core/numerals';
import { ChatPage } from './Chat';
import { FilePage } from './FileView';
import { TrashPage } from './Trash';

const JobsPage = lazy(() => import('./Jobs').then((m) => ({ default: m.JobsPage })));

export interface ProjectCtx {
  project: Project;
  files: FileSummary[];
  reloadFiles: () => void;
  reloadProject: () => void;
}
const Ctx = createContext<ProjectCtx | null>(null);
export const useProject = (): ProjectCtx => useContext(Ctx)!;

const TYPE_ORDER = ['outline', 'character', 'setting', 'draft', 'script', 'folder'] as const;

/** A chapter's place in the book: its number as the core reads titles (the export orders by it too); unnumbered last. */
const chapterPlace = (f: FileSummary): number => unitOfTitle(f.title)?.n ?? Number.MAX_SAFE_INTEGER;

/** Files in the tree's order: by type, chapters by their number, the rest as the API orders them. */
export function treeGroups(files: FileSummary[]) {
  return TYPE_ORDER.map((type) => {
    const list = files.filter((f) => f.type === type);
    if (type === 'draft' || type === 'script') {
      // Each title is parsed once, not once per comparison (books run to a thousand chapters).
      const place = new Map(list.map((f) => [f, chapterPlace(f)]));
      list.sort((a, b) => place.get(a)! - place.get(b)! || a.order - b.order);
    }
    return { type, list };
  }).filter((g) => g.list.length);
}

function go(e: React.MouseEvent, to: string) {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(to);
}

function FileTree({ projectId, current }: { projectId: string; current?: string }) {
  const { t } = useI18n();
  const { files } = useProject();
  const groups = treeGroups(files);
  return (
    <nav aria-label={t.fileTree} className="tree" data-testid="file-tree">
      <h2>{t.fileTree}</h2>
      {groups.length === 0 && <p className="muted small">{t.noFiles}</p>}
      {groups.map((g) => (
        <div key={g.type}>
          <h3>{tk(t, `type_${g.type}`)}</h3>
          <ul>
            {g.list.map((f) => {
              const to = href({ page: 'project', projectId, tab: 'file', sub: f.id });
              return (
                <li key={f.id}>
                  <a href={to} onClick={(e) => go(e, to)} aria-current={current === f.id ? 'page' : undefined} data-file-id={f.id}>
                    <span className="file-title">{f.title}</span>
                    <span className="muted small"> {f.words}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
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
  const [files, setFiles] = useState<FileSummary[]>([]);
  const [error, setError] = useState('');
  const drawers = useDrawers(`${route.tab}/${route.sub ?? ''}`);

  const reloadFiles = useCallback(() => {
    get<{ items: FileSummary[] }>(`/projects/${projectId}/files`)
      .then((r) => setFiles(r.items))
      .catch(() => undefined);
  }, [projectId]);
  const reloadProject = useCallback(() => {
    get<Project>(`/projects/${projectId}`)
      .then(setProject)
      .catch((e: unknown) => setError(errText(e)));
  }, [projectId]);
  useEffect(() => {
    reloadProject();
    reloadFiles();
  }, [reloadProject, reloadFiles]);
  // Agents and jobs write while the author reads: the tree (and an unedited open file) catch
  // up every few seconds while the page is in view, whatever screen is open.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (!document.hidden) reloadFiles();
    }, 8000);
    return () => window.clearInterval(timer);
  }, [reloadFiles]);

  const ctx = useMemo(() => (project ? { project, files, reloadFiles, reloadProject } : null), [project, files, reloadFiles, reloadProject]);
  if (error) return <main><p role="alert" className="error">{error}</p></main>;
  if (!ctx) return <main><p>{t.loading}</p></main>;

  const tabs = [
    { tab: 'chat', label: t.chat },
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
          <FileTree projectId={projectId} current={route.tab === 'file' ? route.sub : undefined} />
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
                  <a key={x.tab} href={to} onClick={(e) => go(e, to)} aria-current={route.tab === x.tab ? 'page' : undefined}>
                    {x.label}
                  </a>
                );
              })}
            </nav>
          </div>
          {route.tab === 'chat' && <ChatPage projectId={projectId} sessionId={route.sub} />}
          {route.tab === 'file' && route.sub && <FilePage key={route.sub} fileId={route.sub} />}
          {route.tab === 'jobs' && (
            <Suspense fallback={<p>{t.loading}</p>}>
              <JobsPage projectId={projectId} jobId={route.sub} />
            </Suspense>
          )}
          {route.tab === 'trash' && <TrashPage />}
        </main>
      </div>
    </Ctx.Provider>
  );
}

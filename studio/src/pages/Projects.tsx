/**
 * The author's projects: the list (each can be edited or deleted), the deleted ones (restorable),
 * and a form to create one (title, type, summary, style).
 */
import { useCallback, useEffect, useState } from 'react';
import { get, post, type Project, errText } from '../api';
import { fmt, tk, useI18n, when } from '../i18n';
import { href, navigate } from '../router';
import { authorError } from './author-errors';
import { deletedProjects, type GoalProject, undeleteProject } from './manuscript-api';
import { DeleteProjectDialog, ProjectEditForm } from './ProjectEdit';

/** Projects the author deleted: kept whole, one click from coming back. */
function DeletedProjects({ items, onRestored }: { items: GoalProject[]; onRestored: (p: GoalProject) => void }) {
  const { t, lang } = useI18n();
  const [error, setError] = useState('');
  if (!items.length) return null;
  return (
    <details className="deleted-projects">
      <summary>{fmt(t.deletedProjects, { n: items.length })}</summary>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ul className="project-list">
        {items.map((p) => (
          <li key={p.id} data-project-id={p.id}>
            <strong>{p.title}</strong>
            <span className="muted small">
              {' '}
              · {fmt(t.deletedOn, { when: p.deletedAt ? when(p.deletedAt, lang) : '' })}{' '}
            </span>
            <button
              type="button"
              className="small secondary"
              aria-label={fmt(t.restoreProject, { title: p.title })}
              onClick={() => void undeleteProject(p.id).then(onRestored, (e: unknown) => setError(authorError(e, t)))}
            >
              {t.undelete}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function ProjectsPage() {
  const { t } = useI18n();
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState('');
  const [form, setForm] = useState({ title: '', type: 'novel', author: '', summary: '', style: '' });
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: string; what: 'edit' | 'delete' } | null>(null);
  const [deleted, setDeleted] = useState<GoalProject[]>([]);
  const [notice, setNotice] = useState('');
  // The form opens on demand above the list: nothing on the page moves when the list arrives.
  const [creating, setCreating] = useState(false);

  const load = useCallback(() => {
    get<{ items: Project[] }>('/projects?limit=100')
      .then((r) => setProjects(r.items))
      .catch((e: unknown) => setError(errText(e)));
    deletedProjects()
      .then((r) => setDeleted(r.items))
      .catch(() => setDeleted([]));
  }, []);
  useEffect(load, [load]);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      // Optional fields are sent only when given (the API's schema is strict about what it takes).
      const optional = (['author', 'summary', 'style'] as const)
        .filter((k) => form[k].trim())
        .map((k) => [k, form[k].trim()]);
      const body = { title: form.title.trim(), type: form.type, ...Object.fromEntries(optional) };
      const p = await post<Project>('/projects', body);
      navigate(href({ page: 'project', projectId: p.id, tab: 'chat' }));
    } catch (err) {
      setError(errText(err));
      setBusy(false);
    }
  };

  const open = (p: Project) => (e: React.MouseEvent) => {
    e.preventDefault();
    navigate(href({ page: 'project', projectId: p.id, tab: 'chat' }));
  };

  const newForm = (
    <section aria-labelledby="new-h" className="card" id="new-project">
      <h2 id="new-h">{t.newProject}</h2>
      <form onSubmit={(e) => void create(e)} className="stack">
        <label>
          {t.title}
          <input
            value={form.title}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
            required
            maxLength={200}
            autoFocus
          />
        </label>
        <label>
          {t.type}
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            {(['novel', 'short_story', 'screenplay'] as const).map((ty) => (
              <option key={ty} value={ty}>
                {tk(t, `type_${ty}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.authorName} <span className="muted small">{t.optional}</span>
          <input
            value={form.author}
            onChange={(e) => setForm({ ...form, author: e.target.value })}
            maxLength={200}
            autoComplete="name"
          />
        </label>
        <label>
          {t.summary}
          <textarea
            value={form.summary}
            onChange={(e) => setForm({ ...form, summary: e.target.value })}
            maxLength={4000}
            rows={3}
          />
        </label>
        <label>
          {t.style}
          <textarea
            value={form.style}
            onChange={(e) => setForm({ ...form, style: e.target.value })}
            maxLength={4000}
            rows={2}
          />
        </label>
        <div className="row">
          <button type="submit" disabled={busy}>
            {t.create}
          </button>
          <button type="button" className="secondary" onClick={() => setCreating(false)}>
            {t.cancel}
          </button>
        </div>
      </form>
    </section>
  );

  return (
    <main className="projects">
      <section aria-labelledby="projects-h">
        <div className="row projects-head">
          <h1 id="projects-h">{t.projects}</h1>
          <button
            type="button"
            aria-expanded={creating}
            aria-controls="new-project"
            onClick={() => setCreating((c) => !c)}
          >
            {t.newProject}
          </button>
        </div>
        {creating && newForm}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {projects === null ? (
          <p>{t.loading}</p>
        ) : projects.length === 0 ? (
          <p>{t.noProjects}</p>
        ) : (
          <ul className="project-list" data-testid="project-list">
            {projects.map((p) => (
              <li key={p.id} data-project-id={p.id}>
                <div className="project-row">
                  <div className="grow">
                    <a href={href({ page: 'project', projectId: p.id, tab: 'chat' })} onClick={open(p)}>
                      <strong>{p.title}</strong>
                    </a>
                    <span className="muted"> · {tk(t, `type_${p.type}`)}</span>
                  </div>
                  <button
                    type="button"
                    className="small secondary"
                    aria-label={fmt(t.editProjectLabel, { title: p.title })}
                    aria-expanded={editing?.id === p.id && editing.what === 'edit'}
                    onClick={() => setEditing({ id: p.id, what: 'edit' })}
                  >
                    {t.manuscriptEdit}
                  </button>
                  <button
                    type="button"
                    className="small danger"
                    aria-label={fmt(t.deleteProjectLabel, { title: p.title })}
                    onClick={() => setEditing({ id: p.id, what: 'delete' })}
                  >
                    {t.delete}
                  </button>
                </div>
                {p.summary && <p className="muted">{p.summary}</p>}
                {editing?.id === p.id && editing.what === 'edit' && (
                  <ProjectEditForm
                    project={p}
                    onCancel={() => setEditing(null)}
                    onDone={(saved) => {
                      setEditing(null);
                      setProjects((list) => list?.map((x) => (x.id === saved.id ? saved : x)) ?? null);
                      setNotice(fmt(t.projectSaved, { title: saved.title }));
                    }}
                  />
                )}
                {editing?.id === p.id && editing.what === 'delete' && (
                  <DeleteProjectDialog
                    project={p}
                    onCancel={() => setEditing(null)}
                    onDone={() => {
                      setEditing(null);
                      setNotice(fmt(t.projectDeleted, { title: p.title }));
                      load();
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        <p role="status" className="small" data-testid="projects-notice">
          {notice}
        </p>
        <DeletedProjects
          items={deleted}
          onRestored={(p) => {
            setNotice(fmt(t.projectRestored, { title: p.title }));
            load();
          }}
        />
      </section>
    </main>
  );
}

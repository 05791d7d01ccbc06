/** The author's projects: the list, and a form to create one (title, type, summary, style). */
import { useEffect, useState } from 'react';
import { get, post, type Project, errText } from '../api';
import { tk, useI18n } from '../i18n';
import { href, navigate } from '../router';

export function ProjectsPage() {
  const { t } = useI18n();
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState('');
  const [form, setForm] = useState({ title: '', type: 'novel', author: '', summary: '', style: '' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    get<{ items: Project[] }>('/projects?limit=100')
      .then((r) => setProjects(r.items))
      .catch((e: unknown) => setError(errText(e)));
  }, []);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      // Optional fields are sent only when given (the API's schema is strict about what it takes).
      const optional = (['author', 'summary', 'style'] as const).filter((k) => form[k].trim()).map((k) => [k, form[k].trim()]);
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

  return (
    <main className="projects">
      <section aria-labelledby="projects-h">
        <h1 id="projects-h">{t.projects}</h1>
        {error && <p role="alert" className="error">{error}</p>}
        {projects === null ? (
          <p>{t.loading}</p>
        ) : projects.length === 0 ? (
          <p>{t.noProjects}</p>
        ) : (
          <ul className="project-list">
            {projects.map((p) => (
              <li key={p.id}>
                <a href={href({ page: 'project', projectId: p.id, tab: 'chat' })} onClick={open(p)}>
                  <strong>{p.title}</strong>
                </a>
                <span className="muted"> · {tk(t, `type_${p.type}`)}</span>
                {p.summary && <p className="muted">{p.summary}</p>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="new-h" className="card">
        <h2 id="new-h">{t.newProject}</h2>
        <form onSubmit={(e) => void create(e)} className="stack">
          <label>
            {t.title}
            <input value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} required maxLength={200} />
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
            {t.authorName} <span className="muted small">({t.optional})</span>
            <input value={form.author} onChange={(e) => setForm({ ...form, author: e.target.value })} maxLength={200} autoComplete="name" />
          </label>
          <label>
            {t.summary}
            <textarea value={form.summary} onChange={(e) => setForm({ ...form, summary: e.target.value })} maxLength={4000} rows={3} />
          </label>
          <label>
            {t.style}
            <textarea value={form.style} onChange={(e) => setForm({ ...form, style: e.target.value })} maxLength={4000} rows={2} />
          </label>
          <button type="submit" disabled={busy}>
            {t.create}
          </button>
        </form>
      </section>
    </main>
  );
}

/**
 * Editing and deleting a project from the projects list. A delete first says what it does
 * with the project's files — they are kept, the project moves to "Deleted projects", from
 * where it comes back whole — with the number of chapters and other files it holds, and
 * happens only when the author confirms.
 */
import { useEffect, useRef, useState } from 'react';
import type { Project } from '../api';
import { authorError } from './author-errors';
import { fmt, tk, useI18n } from '../i18n';
import { deleteProject, filesPage, type GoalProject, updateProject } from './manuscript-api';

export function ProjectEditForm({
  project,
  onDone,
  onCancel,
}: {
  project: Project;
  onDone: (p: GoalProject) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [form, setForm] = useState({
    title: project.title,
    type: project.type,
    author: project.author ?? '',
    summary: project.summary ?? '',
    style: project.style ?? '',
  });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const changes = Object.fromEntries(
        Object.entries({ ...form, title: form.title.trim() }).filter(
          ([k, v]) => v !== (project[k as keyof Project] ?? ''),
        ),
      );
      onDone(Object.keys(changes).length ? await updateProject(project.id, changes) : project);
    } catch (err) {
      setError(authorError(err, t));
      setBusy(false);
    }
  };
  const field = (k: 'author' | 'summary' | 'style') => ({
    value: form[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm({ ...form, [k]: e.target.value }),
  });
  return (
    <form
      className="stack project-edit card"
      onSubmit={(e) => void submit(e)}
      aria-label={fmt(t.editProjectLabel, { title: project.title })}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
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
        <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as Project['type'] })}>
          {(['novel', 'short_story', 'screenplay'] as const).map((ty) => (
            <option key={ty} value={ty}>
              {tk(t, `type_${ty}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.authorName} <span className="muted small">{t.optional}</span>
        <input {...field('author')} maxLength={200} autoComplete="name" />
      </label>
      <label>
        {t.summary}
        <textarea {...field('summary')} maxLength={4000} rows={3} />
      </label>
      <label>
        {t.style}
        <textarea {...field('style')} maxLength={4000} rows={2} />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
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

/** What the project holds, for the delete question: chapters and other files. */
function useContents(projectId: string) {
  const [contents, setContents] = useState<{ chapters: number; other: number } | null>(null);
  useEffect(() => {
    filesPage(projectId, 0, 1)
      .then((p) => {
        const chapters = (p.counts.draft ?? 0) + (p.counts.script ?? 0);
        setContents({ chapters, other: p.total - chapters });
      })
      .catch(() => setContents({ chapters: 0, other: 0 }));
  }, [projectId]);
  return contents;
}

export function DeleteProjectDialog({
  project,
  onDone,
  onCancel,
}: {
  project: Project;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const contents = useContents(project.id);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const confirm = async () => {
    setBusy(true);
    try {
      await deleteProject(project.id);
      onDone();
    } catch (err) {
      setError(authorError(err, t));
      setBusy(false);
    }
  };
  const count = (n: number, one: string, many: string) => fmt(n === 1 ? one : many, { n });
  const what = contents
    ? fmt(t.deleteProjectKeeps, {
        chapters: count(contents.chapters, t.countChapterOne, t.countChapters),
        other: count(contents.other, t.countOtherFileOne, t.countOtherFiles),
      })
    : t.loading;
  return (
    <div
      className="card delete-project"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="delete-project-h"
      aria-describedby="delete-project-b"
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <h3 id="delete-project-h">{fmt(t.deleteProjectQuestion, { title: project.title })}</h3>
      <p id="delete-project-b">{what}</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="danger" onClick={() => void confirm()} disabled={busy || !contents}>
          {t.deleteProjectConfirm}
        </button>
        <button type="button" className="secondary" onClick={onCancel} ref={cancel}>
          {t.cancel}
        </button>
      </div>
    </div>
  );
}

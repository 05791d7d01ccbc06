/** The project's trash: deleted files with when they go for good, and undelete. */
import { useCallback, useEffect, useState } from 'react';
import { get, post, type TrashedFile, errText } from '../api';
import { tk, useI18n, when } from '../i18n';
import { useProject } from './Project';

export function TrashPage() {
  const { t, lang } = useI18n();
  const { project, reloadFiles } = useProject();
  const [items, setItems] = useState<TrashedFile[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    get<{ items: TrashedFile[] }>(`/projects/${project.id}/files?deleted=true`)
      .then((r) => setItems(r.items))
      .catch((e: unknown) => setError(errText(e)));
  }, [project.id]);
  useEffect(load, [load]);

  const undelete = async (id: string) => {
    try {
      await post(`/files/${id}/undelete`);
      load();
      reloadFiles();
    } catch (e) {
      setError(errText(e));
    }
  };

  return (
    <section aria-labelledby="trash-h" className="trash">
      <h2 id="trash-h">{t.trash}</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {items === null ? (
        <p>{t.loading}</p>
      ) : items.length === 0 ? (
        <p className="muted">{t.trashEmpty}</p>
      ) : (
        <ul className="trash-list">
          {items.map((f) => (
            <li key={f.id} data-file-id={f.id}>
              <strong>{f.title}</strong>{' '}
              <span className="muted small">
                · {tk(t, `type_${f.type}`)} · {f.words} {t.words} · {t.deletedAt} {when(f.deletedAt, lang)}
              </span>{' '}
              {f.purgeAt && (
                <span className="muted small">
                  · {t.purgeAt} {when(f.purgeAt, lang, true)}
                </span>
              )}{' '}
              <button type="button" className="small" onClick={() => void undelete(f.id)}>
                {t.undelete}
                <span className="sr-only"> {f.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

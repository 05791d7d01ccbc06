/**
 * A file's versions, oldest first, and one version side by side with the current text
 * (line diff by the `diff` library; loaded only when the history is opened). Restore makes
 * the chosen version the newest one: history only grows.
 */
import { diffLines } from 'diff';
import { useEffect, useMemo, useState } from 'react';
import { get, post, type VersionInfo, errText } from '../api';
import { useI18n, when } from '../i18n';

interface Row {
  left: string | null;
  right: string | null;
  kind: 'same' | 'del' | 'add' | 'change';
}

/** Pairs removed and added lines into rows of a two-column view. */
export function sideBySide(oldText: string, newText: string): Row[] {
  const rows: Row[] = [];
  // A last line without its newline is the same line: only the text is compared.
  const eol = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
  const parts = diffLines(eol(oldText), eol(newText));
  const lines = (s: string) => s.replace(/\n$/, '').split('\n');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const l of lines(p.value)) rows.push({ left: l, right: l, kind: 'same' });
    } else if (p.removed && parts[i + 1]?.added) {
      const a = lines(p.value);
      const b = lines(parts[i + 1]!.value);
      for (let j = 0; j < Math.max(a.length, b.length); j++) rows.push({ left: a[j] ?? null, right: b[j] ?? null, kind: 'change' });
      i++;
    } else if (p.removed) for (const l of lines(p.value)) rows.push({ left: l, right: null, kind: 'del' });
    else for (const l of lines(p.value)) rows.push({ left: null, right: l, kind: 'add' });
  }
  return rows;
}

export function History({ fileId, head, current, onRestored }: { fileId: string; head: number; current: string; onRestored: () => void }) {
  const { t, lang } = useI18n();
  const [versions, setVersions] = useState<VersionInfo[]>([]);
  const [picked, setPicked] = useState<VersionInfo | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    get<{ items: VersionInfo[] }>(`/files/${fileId}/versions`)
      .then((r) => setVersions(r.items))
      .catch((e: unknown) => setError(errText(e)));
  }, [fileId, head]);

  const pick = (v: number) =>
    get<VersionInfo>(`/files/${fileId}/versions/${v}`)
      .then(setPicked)
      .catch((e: unknown) => setError(errText(e)));

  const rows = useMemo(() => (picked ? sideBySide(picked.content ?? '', current) : []), [picked, current]);

  const restore = async () => {
    if (!picked) return;
    try {
      await post(`/files/${fileId}/restore`, { version: picked.version });
      setPicked(null);
      onRestored();
    } catch (e) {
      setError(errText(e));
    }
  };

  return (
    <section className="history card" aria-labelledby="history-h">
      <h3 id="history-h">{t.history}</h3>
      {error && <p role="alert" className="error">{error}</p>}
      <ol className="versions">
        {[...versions].reverse().map((v) => (
          <li key={v.version}>
            <button type="button" className={picked?.version === v.version ? 'small' : 'secondary small'} onClick={() => void pick(v.version)} aria-pressed={picked?.version === v.version}>
              {t.version} {v.version}
            </button>{' '}
            <span className="muted small">
              {v.author === 'author' ? t.by_author : t.by_ai}
              {v.operation ? ` · ${v.operation}` : ''} · {v.words} {t.words} · {when(v.createdAt, lang)}
              {v.version === head ? ` · ${t.current}` : ''}
            </span>
          </li>
        ))}
      </ol>
      {picked && (
        <div className="diff-wrap">
          <div className="row">
            <strong>
              {t.version} {picked.version}
            </strong>
            <span className="muted small">{t.compareWith}</span>
            <button type="button" onClick={() => void restore()} disabled={picked.version === head}>
              {t.restore}
            </button>
          </div>
          <table className="diff" data-testid="diff">
            <thead>
              <tr>
                <th scope="col">
                  {t.version} {picked.version}
                </th>
                <th scope="col">{t.current}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i} className={r.kind}>
                  <td className={r.left === null ? 'empty' : r.kind === 'same' ? '' : 'del'}>{r.left ?? ''}</td>
                  <td className={r.right === null ? 'empty' : r.kind === 'same' ? '' : 'add'}>{r.right ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

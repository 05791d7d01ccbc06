/**
 * A file's versions, newest first, each said in words (who made it and how; an autosave burst
 * is one entry), and one version compared with the current text by words — side by side, or
 * as running text with the removed words struck — unchanged paragraphs folded away. Loaded
 * only when the history is opened. Restore makes the chosen version the newest: history only grows.
 */
import { Fragment, useEffect, useMemo, useState } from 'react';
import { type FileDoc, get, post, type VersionInfo, errText } from '../api';
import { compareProse, type Piece, stretches } from '../editor/word-diff';
import { type Dict, fmt, tk, useI18n, when } from '../i18n';

/** A version as the history lists it; `saves` and `restoredFrom` are newer fields, read defensively. */
type Listed = VersionInfo & { saves?: number; restoredFrom?: number | null };

/** Who made a version and how, in the author's words. */
export function versionLabel(t: Dict, v: Listed): string {
  const agent = v.agent ? tk(t, `agent_${v.agent}`) : t.edOpTeam;
  if (v.author === 'author') {
    if (v.operation === 'restore')
      return v.restoredFrom ? fmt(t.edOpRestoredFrom, { v: v.restoredFrom }) : t.edOpRestored;
    if (v.operation === 'author_create') return t.edOpCreatedByYou;
    if (v.operation === 'author_autosave')
      return (v.saves ?? 1) > 1 ? fmt(t.edOpYourEditsSaves, { n: v.saves! }) : t.edOpYourEdits;
    return t.edOpSavedByYou;
  }
  return v.operation?.startsWith('edit') ? fmt(t.edOpEditedBy, { agent }) : fmt(t.edOpWrittenBy, { agent });
}

function Words({ pieces, side }: { pieces: Piece[] | null; side?: 'old' | 'new' }) {
  const { t } = useI18n();
  if (!pieces) return null;
  return (
    <>
      {pieces.map((p, i) =>
        p.kind === 'same' ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : p.kind === 'del' && side !== 'new' ? (
          <del key={i} title={t.edRemovedWords}>
            {p.text}
          </del>
        ) : (
          <ins key={i} title={t.edAddedWords}>
            {p.text}
          </ins>
        ),
      )}
    </>
  );
}

function Comparison({ before, after, version }: { before: string; after: string; version: number }) {
  const { t, lang } = useI18n();
  const [view, setView] = useState<'side' | 'inline'>(() =>
    window.matchMedia?.('(max-width: 700px)').matches ? 'inline' : 'side',
  );
  const [opened, setOpened] = useState<Set<number>>(new Set());
  const comparison = useMemo(() => compareProse(before, after, lang === 'zh' ? 'zh' : 'en'), [before, after, lang]);
  const side = useMemo(() => stretches(comparison.rows, (r) => r.kind !== 'same'), [comparison]);
  const inline = useMemo(() => stretches(comparison.inline, (l) => l.changed), [comparison]);
  if (before === after) return <p className="muted">{t.edNoDifferences}</p>;
  const fold = (i: number, n: number) => (
    <button type="button" className="link small" onClick={() => setOpened((o) => new Set(o).add(i))}>
      {fmt(t.edShowUnchanged, { n })}
    </button>
  );
  return (
    <>
      <div className="row" role="radiogroup" aria-label={t.edCompareView}>
        {(['side', 'inline'] as const).map((v) => (
          <label key={v} className="check small">
            <input type="radio" name="diff-view" checked={view === v} onChange={() => setView(v)} />
            {v === 'side' ? t.edViewSideBySide : t.edViewInline}
          </label>
        ))}
      </div>
      {view === 'side' ? (
        <table className="diff" data-testid="diff">
          <thead>
            <tr>
              <th scope="col">{fmt(t.edVersionN, { v: version })}</th>
              <th scope="col">{t.current}</th>
            </tr>
          </thead>
          <tbody>
            {side.map((s, i) =>
              s.folded && !opened.has(i) ? (
                <tr key={i} className="folded">
                  <td colSpan={2}>{fold(i, s.items.length)}</td>
                </tr>
              ) : (
                s.items.map((r, j) => (
                  <tr key={`${i}.${j}`} className={r.kind}>
                    <td className={r.left === null ? 'empty' : r.kind === 'same' ? '' : 'del'}>
                      <Words pieces={r.left} side="old" />
                    </td>
                    <td className={r.right === null ? 'empty' : r.kind === 'same' ? '' : 'add'}>
                      <Words pieces={r.right} side="new" />
                    </td>
                  </tr>
                ))
              ),
            )}
          </tbody>
        </table>
      ) : (
        <div className="diff-inline" data-testid="diff">
          {inline.map((s, i) =>
            s.folded && !opened.has(i) ? (
              <p key={i} className="folded">
                {fold(i, s.items.length)}
              </p>
            ) : (
              s.items.map((l, j) => (
                <p key={`${i}.${j}`} className={l.changed ? 'changed' : ''}>
                  <Words pieces={l.pieces} />
                </p>
              ))
            ),
          )}
        </div>
      )}
    </>
  );
}

interface Props {
  fileId: string;
  head: number;
  current: string;
  /** Saves what the author typed before the restore replaces it; false: it could not, nothing is restored. */
  beforeRestore: () => Promise<boolean>;
  onRestored: (file: FileDoc & { restoredFrom: number }) => void;
}

export function History({ fileId, head, current, beforeRestore, onRestored }: Props) {
  const { t, lang } = useI18n();
  const [versions, setVersions] = useState<Listed[]>([]);
  const [picked, setPicked] = useState<VersionInfo | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    get<{ items: Listed[] }>(`/files/${fileId}/versions`)
      .then((r) => setVersions(r.items))
      .catch((e: unknown) => setError(errText(e)));
  }, [fileId, head]);

  const pick = (v: number) =>
    get<VersionInfo>(`/files/${fileId}/versions/${v}`)
      .then(setPicked)
      .catch((e: unknown) => setError(errText(e)));

  const restore = async () => {
    if (!picked) return;
    setError('');
    try {
      if (!(await beforeRestore())) {
        setError(t.edRestoreBlocked);
        return;
      }
      const r = await post<FileDoc & { restoredFrom: number }>(`/files/${fileId}/restore`, { version: picked.version });
      setPicked(null);
      onRestored(r);
    } catch (e) {
      setError(errText(e));
    }
  };

  return (
    <section className="history card" aria-labelledby="history-h">
      <h3 id="history-h">{t.history}</h3>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ol className="versions">
        {[...versions].reverse().map((v) => (
          <li key={v.version}>
            <button
              type="button"
              className={picked?.version === v.version ? 'small' : 'secondary small'}
              onClick={() => void pick(v.version)}
              aria-pressed={picked?.version === v.version}
            >
              {fmt(t.edVersionN, { v: v.version })}
            </button>{' '}
            <span className="muted small">
              {versionLabel(t, v)} · {v.words} {t.words} · {when(v.createdAt, lang)}
              {v.version === head ? ` · ${t.current}` : ''}
            </span>
          </li>
        ))}
      </ol>
      {picked && (
        <div className="diff-wrap">
          <div className="row">
            <strong>{fmt(t.edCompareHeading, { v: picked.version })}</strong>
            <button type="button" onClick={() => void restore()} disabled={picked.version === head}>
              {t.restore}
            </button>
          </div>
          <Comparison before={picked.content ?? ''} after={current} version={picked.version} />
        </div>
      )}
    </section>
  );
}

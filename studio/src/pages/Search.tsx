/**
 * Search across the manuscript: titles and text of every file, Chinese and English. Each hit
 * shows its snippet with the match marked; clicking it opens the file with the match selected.
 * The query lives in the address (…/search?q=…), so Back returns to the results.
 */
import { useEffect, useRef, useState } from 'react';
import { fmt, tk, useI18n } from '../i18n';
import { authorError } from './author-errors';
import { formatNumber } from './numbers';
import { href, navigate } from '../router';
import { searchManuscript, type SearchResults } from './manuscript-api';

function go(e: React.MouseEvent, to: string) {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(to);
}

function Results({ projectId, found }: { projectId: string; found: SearchResults }) {
  const { t, lang } = useI18n();
  const n = (x: number) => formatNumber(x, lang);
  if (!found.results.length) return <p className="muted">{fmt(t.searchNothing, { q: found.query })}</p>;
  return (
    <>
      <p className="muted small" data-testid="search-summary">
        {fmt(t.searchSummary, {
          hits: fmt(found.total === 1 ? t.searchHitOne : t.searchHits, { n: n(found.total) }),
          files: fmt(found.files === 1 ? t.searchFileOne : t.searchFiles, { n: n(found.files) }),
        })}
        {found.mode === 'words' ? ` ${t.searchAllWords}` : ''}
        {found.truncated ? ` ${fmt(t.searchTruncated, { n: found.results.length })}` : ''}
      </p>
      <ol className="search-results">
        {found.results.map((r) => {
          const open = href({ page: 'project', projectId, tab: 'file', sub: r.fileId });
          return (
            <li key={r.fileId} data-file-id={r.fileId}>
              <h3>
                <a href={open} onClick={(e) => go(e, open)}>
                  {r.title}
                </a>{' '}
                <span className="muted small">
                  {tk(t, `kind_${r.type}`)} ·{' '}
                  {r.titleMatch && !r.count
                    ? t.searchTitleMatch
                    : fmt(r.count === 1 ? t.searchHitOne : t.searchHits, { n: n(r.count) })}
                </span>
              </h3>
              <ul className="search-hits">
                {r.hits.map((h) => {
                  const to = href({
                    page: 'project',
                    projectId,
                    tab: 'file',
                    sub: r.fileId,
                    at: { from: h.from, to: h.to },
                  });
                  return (
                    <li key={h.from}>
                      <a href={to} onClick={(e) => go(e, to)} className="search-hit" data-from={h.from}>
                        {h.before}
                        <mark>{h.match}</mark>
                        {h.after}
                      </a>
                    </li>
                  );
                })}
              </ul>
              {r.count > r.hits.length && (
                <p className="muted small">{fmt(t.searchMoreInFile, { n: n(r.count - r.hits.length) })}</p>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

export function SearchPage({ projectId, query }: { projectId: string; query: string }) {
  const { t } = useI18n();
  const [text, setText] = useState(query);
  const [found, setFound] = useState<SearchResults | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setText(query);
    setFound(null);
    setError('');
    if (!query.trim()) {
      input.current?.focus();
      return;
    }
    let current = true;
    setBusy(true);
    searchManuscript(projectId, query)
      .then((r) => current && setFound(r))
      .catch((e: unknown) => current && setError(authorError(e, t)))
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [projectId, query, t]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (text.trim()) navigate(href({ page: 'project', projectId, tab: 'search', q: text.trim() }), !!query);
  };
  return (
    <section className="search-page" aria-labelledby="search-h">
      <h2 id="search-h">{t.searchTitle}</h2>
      <form role="search" className="row search-form" onSubmit={submit}>
        <label className="grow">
          <span className="sr-only">{t.searchLabel}</span>
          <input
            ref={input}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t.searchPlaceholder}
            aria-label={t.searchLabel}
            maxLength={200}
          />
        </label>
        <button type="submit" disabled={busy || !text.trim()}>
          {t.searchButton}
        </button>
      </form>
      {busy && <p className="muted small">{t.searching}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {found && <Results projectId={projectId} found={found} />}
    </section>
  );
}

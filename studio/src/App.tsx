/**
 * The shell: language, light or dark, sign-in, and the page for the current route. The header
 * never scrolls away: the page below it scrolls on its own (styles/shell.css), at any width.
 */
import { useEffect, useMemo, useState } from 'react';
import { ApiError, auth, get, onUnauthorized, errText } from './api';
import { DICTS, I18nContext, initialLang, tk, type Lang, saveLang, useI18n } from './i18n';
import { href, navigate, useRoute } from './router';
import { THEME_CHOICES, type ThemeChoice, useTheme } from './theme';
import { ProjectsPage } from './pages/Projects';
import { ProjectPage } from './pages/Project';

function SignIn({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    auth.token = token.trim();
    try {
      await get('/projects?limit=1');
      onDone();
    } catch (err) {
      auth.token = '';
      setError(err instanceof ApiError && err.status === 401 ? t.badToken : errText(err));
    }
  };
  return (
    <main className="signin">
      <h1>{t.signIn}</h1>
      <p>{t.tokenHelp}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          {t.tokenLabel}
          <input
            type="password"
            autoComplete="current-password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
          />
        </label>
        <button type="submit">{t.signIn}</button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [needToken, setNeedToken] = useState(false);
  const [signedIn, setSignedIn] = useState(!!auth.token);
  const [theme, setTheme] = useTheme();
  const route = useRoute();
  const i18n = useMemo(() => ({ lang, t: DICTS[lang], setLang: (l: Lang) => (saveLang(l), setLangState(l)) }), [lang]);

  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = DICTS[lang].appName;
  }, [lang]);
  useEffect(() => onUnauthorized(() => setNeedToken(true)), []);

  const t = i18n.t;
  return (
    <I18nContext.Provider value={i18n}>
      <header className="top">
        <a
          className="brand"
          aria-label={t.appName}
          href={href({ page: 'projects' })}
          onClick={(e) => {
            e.preventDefault();
            navigate(href({ page: 'projects' }));
          }}
        >
          {/* The full name, or its first word where the header is narrow (styles/shell.css). */}
          <span className="brand-long">{t.appName}</span>
          <span className="brand-short" aria-hidden="true">
            {t.appShort}
          </span>
        </a>
        <div className="top-right">
          <label className="theme">
            <span className="sr-only">{t.theme}</span>
            <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)} aria-label={t.theme}>
              {THEME_CHOICES.map((c) => (
                <option key={c} value={c}>
                  {tk(t, `theme_${c}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="lang">
            <span className="sr-only">{t.language}</span>
            <select value={lang} onChange={(e) => i18n.setLang(e.target.value as Lang)} aria-label={t.language}>
              <option value="en">English</option>
              <option value="zh">中文</option>
            </select>
          </label>
          {signedIn && (
            <button
              type="button"
              className="link"
              onClick={() => {
                auth.token = '';
                setSignedIn(false);
                setNeedToken(true);
              }}
            >
              {t.signOut}
            </button>
          )}
        </div>
      </header>
      <div className="page">
        {needToken ? (
          <SignIn
            onDone={() => {
              setNeedToken(false);
              setSignedIn(true);
            }}
          />
        ) : route.page === 'projects' ? (
          <ProjectsPage />
        ) : (
          <ProjectPage key={route.projectId} route={route} />
        )}
      </div>
    </I18nContext.Provider>
  );
}

/** The shell: language, sign-in, and the page for the current route. */
import { useEffect, useMemo, useState } from 'react';
import { ApiError, auth, get, onUnauthorized, errText } from './api';
import { DICTS, I18nContext, initialLang, type Lang, saveLang, useI18n } from './i18n';
import { href, navigate, useRoute } from './router';
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
          <input type="password" autoComplete="current-password" value={token} onChange={(e) => setToken(e.target.value)} required />
        </label>
        <button type="submit">{t.signIn}</button>
        {error && <p role="alert" className="error">{error}</p>}
      </form>
    </main>
  );
}

export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [needToken, setNeedToken] = useState(false);
  const [signedIn, setSignedIn] = useState(!!auth.token);
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
          href={href({ page: 'projects' })}
          onClick={(e) => {
            e.preventDefault();
            navigate(href({ page: 'projects' }));
          }}
        >
          {t.appName}
        </a>
        <div className="top-right">
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
    </I18nContext.Provider>
  );
}

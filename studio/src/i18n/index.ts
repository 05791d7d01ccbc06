/**
 * Studio's two languages. The author's choice is kept in localStorage; the first visit
 * follows the browser. Every string a person reads comes from here: one part per area of
 * Studio (./base.ts, ./editor.ts, …), merged into one dictionary per language. A key missing
 * in one language, or defined by two parts, fails the typecheck or the unit test.
 */
import { createContext, useContext } from 'react';
import { DICTS, type Dict, type Lang } from './parts';

export { DICTS, type Dict, type Lang };
const LANG_KEY = 'scriptorium.lang';

export function initialLang(): Lang {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === 'en' || saved === 'zh') return saved;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
export const saveLang = (l: Lang) => localStorage.setItem(LANG_KEY, l);

export interface I18n {
  lang: Lang;
  t: Dict;
  setLang: (l: Lang) => void;
}
export const I18nContext = createContext<I18n>({ lang: 'en', t: DICTS.en, setLang: () => undefined });
export const useI18n = (): I18n => useContext(I18nContext);

/** A dictionary entry by a computed key (agent names, statuses), falling back to the key. */
export function tk(t: Dict, key: string): string {
  return (t as Record<string, string>)[key] ?? key;
}

/** A date and time in the author's language. */
export const when = (iso: string, lang: Lang, dateOnly = false): string => {
  const d = new Date(iso);
  const locale = lang === 'zh' ? 'zh-CN' : 'en-GB';
  return dateOnly
    ? d.toLocaleDateString(locale)
    : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
};

export const fmt = (s: string, vars: Record<string, string | number>) =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

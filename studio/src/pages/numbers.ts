/** Numbers as the author's language writes them ("1,000"), with one formatter per language: making one per call costs more than a row of a long list. */
import type { Lang } from '../i18n';

const formats = new Map<Lang, Intl.NumberFormat>();

export function formatNumber(n: number, lang: Lang): string {
  let f = formats.get(lang);
  if (!f) formats.set(lang, (f = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en')));
  return f.format(n);
}

/**
 * Text helpers shared by workflows and activities. Pure module.
 */

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/g;

/**
 * Counts words the way an editor does: each CJK character is a word, and each run of
 * letters/digits in other scripts is a word. Markup-free text is expected.
 */
export function countWords(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = text.replace(CJK, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
  return cjk + rest;
}

/** True when the text contains more CJK characters than Latin letters. */
export function isMostlyChinese(text: string): boolean {
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return cjk > 0 && cjk * 2 >= latin;
}

/** Reply language follows the author's latest message. */
export function detectLanguage(text: string): 'zh' | 'en' {
  return isMostlyChinese(text) ? 'zh' : 'en';
}

/** Cuts to at most `max` characters (code points), marking the cut. */
export function truncate(text: string, max: number, marker = '…'): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max - marker.length)).join('') + marker;
}

/** The last `max` characters (code points). */
export function tail(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(chars.length - max).join('');
}

/** Curly apostrophes and quotes as straight ones: "I’d" reads as "I'd" in every rule (lengths unchanged). */
export function straightQuotes(text: string): string {
  return text.replace(/[’‘`´]/g, "'").replace(/[“”]/g, '"');
}

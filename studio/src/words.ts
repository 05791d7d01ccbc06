/**
 * Word counts as authors expect them: every CJK character (Han, kana, hangul) counts as one,
 * runs of other letters and digits count as one word each. "He said 你好" is 4.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = text.replace(CJK, ' ').match(WORD)?.length ?? 0;
  return cjk + rest;
}

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 一百二十三 → 123 (up to the thousands, as chapter numbers go). */
function zhNumber(s: string): number | null {
  let total = 0;
  let digit = 0;
  for (const ch of s) {
    const unit = ch === '十' ? 10 : ch === '百' ? 100 : ch === '千' ? 1000 : 0;
    if (ch in ZH_DIGITS) digit = ZH_DIGITS[ch]!;
    else if (unit) {
      // 十二 is 12: a ten with no digit before it is one ten.
      total += (digit || (unit === 10 ? 1 : 0)) * unit;
      digit = 0;
    } else return null;
  }
  return total + digit;
}

/** The chapter number in a title ("Chapter 12", "第十二章", "Ch. 3: …"), or null. */
export function chapterNumber(title: string): number | null {
  const zh = /第\s*([0-9]+|[零〇一二两三四五六七八九十百千]+)\s*[章回节幕集]/.exec(title);
  if (zh) return /\d/.test(zh[1]!) ? Number(zh[1]) : zhNumber(zh[1]!);
  const en = /\b(?:chapter|ch\.?|episode|scene|act)\s*(\d+)/i.exec(title);
  if (en) return Number(en[1]);
  const lead = /^\s*(\d+)\b/.exec(title);
  return lead ? Number(lead[1]) : null;
}

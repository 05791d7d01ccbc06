/**
 * The fact check's lines in a review packet (fact-check.ts finds what they say): each
 * contradiction quoting both texts, in the session's language, and a note when the check ran
 * out of time. Pure module.
 */
import type { FactCheckResult, FactFinding } from './fact-check';

/** Findings listed in a packet at most; the rest are counted. */
const MAX_LINES = 8;

/** Characters of a quotation a line shows: enough to find it, short enough to stay one line. */
const QUOTE_SHOWN = 60;
const cut = (s: string): string => ([...s].length > QUOTE_SHOWN ? `${[...s].slice(0, QUOTE_SHOWN - 1).join('')}…` : s);

/** One finding as the reviewer reads it: both texts quoted, so it states what differs and guesses nothing. */
function findingLine(f: FactFinding, language: 'zh' | 'en'): string {
  if (f.kind === 'number') {
    const value = (v: number) =>
      language === 'zh' ? (f.fact === 'age' ? `${v} 岁` : `生于 ${v} 年`) : f.fact === 'age' ? `age ${v}` : `born ${v}`;
    return language === 'zh'
      ? `《${f.file}》写“${f.stated.text}”（${value(f.stated.value)}），卡片《${f.card.title}》写“${f.card.text}”（${value(f.card.value)}）。`
      : `“${f.file}” says “${f.stated.text}” (${value(f.stated.value)}); the card “${f.card.title}” says “${f.card.text}” (${value(f.card.value)}).`;
  }
  const quote = cut(f.quote);
  if (f.closest)
    return language === 'zh'
      ? `《${f.file}》把“${quote}”当作前文的原话，但前文里没有一字不差的这句；前文《${f.closest.file}》写的是“${cut(f.closest.text)}”。`
      : `“${f.file}” gives “${quote}” as earlier words, but no earlier text has it word for word; “${f.closest.file}” has “${cut(f.closest.text)}”.`;
  return language === 'zh'
    ? `《${f.file}》说“${quote}”出自前面的章节，但前面的章节里没有一字不差的这句。`
    : `“${f.file}” quotes “${quote}” from an earlier chapter, but no earlier chapter has it word for word.`;
}

/**
 * The `[fact check]` lines of a review packet, in the session's language: each contradiction,
 * and whether the check ran out of time (`check` null: its reads did not arrive in time).
 * Nothing when the check found nothing.
 */
export function factCheckLines(check: FactCheckResult | null, language: 'zh' | 'en', budgetMs: number): string[] {
  const seconds = `${budgetMs / 1000}`;
  if (!check)
    return [
      language === 'zh'
        ? `[fact check] 没有核对：${seconds} 秒内没有读到项目的前文和卡片。`
        : `[fact check] Not done: the project's earlier chapters and cards were not read within ${seconds} s.`,
    ];
  const lines = check.findings.slice(0, MAX_LINES).map((f) => `[fact check] ${findingLine(f, language)}`);
  const more = check.findings.length - MAX_LINES;
  if (more > 0)
    lines.push(language === 'zh' ? `[fact check] 另有 ${more} 处，未列出。` : `[fact check] ${more} more not listed.`);
  if (check.cutShort)
    lines.push(
      language === 'zh'
        ? `[fact check] 核对到 ${seconds} 秒上限就停了：本轮其余的正文没有和前文、卡片核对。`
        : `[fact check] Cut short at the ${seconds} s limit: the rest of this turn's text was not checked against the earlier chapters and the cards.`,
    );
  return lines;
}

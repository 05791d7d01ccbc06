/**
 * The quality reviewer's verdict line, read the same way by the job (another revision round
 * or not), the metrics and Studio's verdict badge. Pure module: Studio bundles it too.
 */

/** What a reviewer's text concluded: `none` when it has no verdict line (yet). */
export type Verdict = 'pass' | 'revise' | 'none';

const VERDICT = /verdict\s*[:：]\s*\**\s*(revise|pass|修改|返修|通过)/i;
const ZH_VERDICT = /(结论|判定)\s*[:：]\s*\**\s*(修改|返修|通过)/;

/** "Verdict: revise" (结论：修改 / 返修) asks for another round; "Verdict: pass" (通过) does not. */
export function parseVerdict(text: string): Verdict {
  const m = VERDICT.exec(text) ?? ZH_VERDICT.exec(text);
  if (!m) return 'none';
  const word = (m[2] ?? m[1])!.toLowerCase();
  return word === 'revise' || word === '修改' || word === '返修' ? 'revise' : 'pass';
}

/**
 * A turn as the author sees it: the core's fold of its stream events (src/core/turn-view.ts),
 * the same one that builds a finished turn's durable record, so a turn looks the same live,
 * after a reload and after its stream expired.
 */
import { parseVerdict } from '../../src/core/verdict';

export { foldTurn as apply, newTurnView as newTurn, settledView } from '../../src/core/turn-view';
export type { FileCard, ToolStep, TurnItem as Item, TurnView } from '../../src/core/turn-view';

/** The reviewer's verdict in a text, or undefined when it has none (the core's parser). */
export function verdictOf(text: string): 'pass' | 'revise' | undefined {
  const v = parseVerdict(text);
  return v === 'none' ? undefined : v;
}

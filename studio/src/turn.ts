/**
 * A turn as the author sees it: the core's fold of its stream events (src/core/turn/turn-view.ts),
 * the same one that builds a finished turn's durable record, so a turn looks the same live,
 * after a reload and after its stream expired.
 */
export { foldTurn as apply, newTurnView as newTurn, settledView } from '../../src/core/turn/turn-view';
export type { FileCard, ToolStep, TurnItem as Item, TurnView } from '../../src/core/turn/turn-view';

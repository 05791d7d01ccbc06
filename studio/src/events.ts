/** The stream contract's event types, as the API declares them (types only: nothing of it is bundled). */
import type { StreamEvent } from '../../src/core/events';

export type { StreamEvent };
export type Ev<T extends StreamEvent['type']> = Extract<StreamEvent, { type: T }>;

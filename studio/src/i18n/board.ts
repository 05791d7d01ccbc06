/** Strings of Studio's board screens, in both languages (see ./index.ts). */
import { part } from './part';

export const board = part({}, {});

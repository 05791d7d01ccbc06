/** Strings of Studio's record screens, in both languages (see ./index.ts). */
import { part } from './part';

export const record = part({}, {});

/** Strings of Studio's editor screens, in both languages (see ./index.ts). */
import { part } from './part';

export const editor = part({}, {});

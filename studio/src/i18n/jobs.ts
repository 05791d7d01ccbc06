/** Strings of Studio's jobs screens, in both languages (see ./index.ts). */
import { part } from './part';

export const jobs = part({}, {});

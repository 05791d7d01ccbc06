/** Strings of Studio's shell screens, in both languages (see ./index.ts). */
import { part } from './part';

export const shell = part({}, {});

/**
 * The shape of the persona's writing material, and the slot filler that turns a
 * template into a sentence.
 */

export interface Bank {
  lang: 'en' | 'zh';
  /** Fixed per language so the outline, the hooks and every chapter share one cast. */
  cast: { A: string; B: string; C: string };
  places: string[];
  objects: string[];
  weather: string[];
  sounds: string[];
  novelTitles: string[];
  chapterTitles: string[];
  narration: string[];
  /** Two-line exchanges; each line becomes its own paragraph, as dialogue is set in prose. */
  dialogue: [string, string][];
  /** One per outline chapter (at least ten). */
  beats: string[];
  /** [kind, hook] pairs for the opening-hooks file. */
  hooks: [string, string][];
  reviewNotes: { pass: string[]; revise: string[] };
}

export interface Slots {
  place: string;
  object: string;
  weather: string;
  sound: string;
}

/** Fills `{A}`, `{B}`, `{C}` and the per-paragraph slots; capitalises an English sentence start. */
export function fill(template: string, bank: Bank, slots: Slots): string {
  const values: Record<string, string> = { ...bank.cast, ...slots };
  const text = template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  if (bank.lang !== 'en') return text;
  return text.replace(/^(["“]?)([a-z])/, (_m, quote: string, ch: string) => quote + ch.toUpperCase());
}

/**
 * Builds the persona's documents — outline, opening hooks, chapter prose, review — from
 * a bank and a seed. Same bank and seed, same text.
 */
import { findUnitRefs } from '../../core/words/numerals';
import { countWords } from '../../core/text';
import { fill, type Bank, type Slots } from './bank';
import { ShuffleBag, pick, rng, shuffled } from './rng';

/** Per-paragraph slot values, drawn so neighbouring paragraphs differ. */
class SlotDrawer {
  private readonly places: ShuffleBag<string>;
  private readonly objects: ShuffleBag<string>;
  private readonly weather: ShuffleBag<string>;
  private readonly sounds: ShuffleBag<string>;

  constructor(bank: Bank, rand: () => number) {
    this.places = new ShuffleBag(bank.places, rand);
    this.objects = new ShuffleBag(bank.objects, rand);
    this.weather = new ShuffleBag(bank.weather, rand);
    this.sounds = new ShuffleBag(bank.sounds, rand);
  }

  next(): Slots {
    return {
      place: this.places.next(),
      object: this.objects.next(),
      weather: this.weather.next(),
      sound: this.sounds.next(),
    };
  }
}

/** Joins sentences the way each language does: spaces in English, nothing in Chinese. */
function joinSentences(bank: Bank, sentences: string[]): string {
  return sentences.join(bank.lang === 'en' ? ' ' : '');
}

/** Title of the novel: a quoted title in the author's words, else one from the bank. */
export function novelTitle(bank: Bank, seed: number, authorWords: string): string {
  const quoted = /[“"《「]([^”"》」\n]{2,40})[”"》」]/.exec(authorWords);
  return quoted ? quoted[1].trim() : pick(bank.novelTitles, rng(seed));
}

const ROMAN = ['', ' II', ' III', ' IV', ' V', ' VI', ' VII', ' VIII', ' IX', ' X'];

/**
 * The chapter range a planning request names ("chapters 1–50", "chapters 11 to 40",
 * "第1-50章"), or null. Capped so a typo cannot ask for a million lines.
 */
export function requestedRange(text: string): { from: number; to: number } | null {
  // The first chapter range the shared numeral parser finds (core/words/numerals.ts).
  const r = findUnitRefs(text).find((x) => x.kind === 'chapter' && x.to > x.from);
  return r && r.to <= 2000 ? { from: r.from, to: r.to } : null;
}

/**
 * An outline: title line, then `Chapter N: Title — beat` (`第N章：标题——梗概`), ten
 * chapters, or up to the last chapter of a range the request names. Past the bank's ten
 * beats the beats come round again and titles get a numeral, so every entry is distinct.
 */
export function outlineDoc(bank: Bank, seed: number, title: string, chapters = 10): string {
  const rand = rng(seed);
  const titles = shuffled(bank.chapterTitles, rand);
  const beats = bank.beats.slice(0, 10);
  const slots = new SlotDrawer(bank, rand);
  const lines = Array.from({ length: Math.max(1, chapters) }, (_, i) => {
    const n = i + 1;
    const summary = fill(beats[i % beats.length], bank, slots.next());
    const round = Math.floor(i / titles.length);
    const name = `${titles[i % titles.length]}${ROMAN[round % ROMAN.length]}${round >= ROMAN.length ? ` ${round + 1}` : ''}`;
    return bank.lang === 'en' ? `Chapter ${n}: ${name} — ${summary}` : `第${n}章：${name}——${summary}`;
  });
  const heading = bank.lang === 'en' ? `# ${title} — Outline` : `# ${title} · 大纲`;
  return [heading, '', ...lines].join('\n');
}

/** Three opening hooks and a recommendation. */
export function hooksDoc(bank: Bank, seed: number): string {
  const rand = rng(seed);
  const slots = new SlotDrawer(bank, rand);
  const chosen = shuffled(bank.hooks, rand).slice(0, 3);
  const lines = chosen.map(([kind, hook], i) => `${i + 1}. ${kind} — ${fill(hook, bank, slots.next())}`);
  const [heading, recommend] =
    bank.lang === 'en'
      ? [
          '# Opening hooks',
          `Recommendation: hook 1 (${chosen[0][0].toLowerCase()}) — it raises a question on the first page that only ${bank.cast.A} can answer.`,
        ]
      : ['# 开篇钩子', `推荐：钩子1（${chosen[0][0]}）——第一页就抛出一个只有${bank.cast.A}能回答的问题。`];
  return [heading, '', ...lines, '', recommend].join('\n');
}

const TITLE_LINE = {
  en: (n: number) => new RegExp(`^\\s*(?:#+\\s*)?Chapter\\s+${n}\\s*[:.–—-]\\s*(.+?)(?:\\s+[—–-]\\s+.*)?\\s*$`, 'im'),
  zh: (n: number) => new RegExp(`^\\s*(?:#+\\s*)?第\\s*${n}\\s*章\\s*[：:]?\\s*(.+?)(?:——.*)?\\s*$`, 'm'),
};

/**
 * The chapter's title: taken from an outline the agent was shown when there is one (so
 * the draft agrees with the plan), else from the bank.
 */
export function chapterTitle(bank: Bank, chapter: number, contextTexts: string[]): string {
  const re = TITLE_LINE[bank.lang](chapter);
  for (const text of contextTexts) {
    const m = re.exec(text);
    if (m && m[1].length <= 60) return m[1].trim();
  }
  return bank.chapterTitles[(chapter - 1) % bank.chapterTitles.length];
}

/** Chapter heading line, e.g. `# Chapter 3: Low Tide` / `# 第3章 退潮`. */
export function chapterHeading(bank: Bank, chapter: number, title: string): string {
  return bank.lang === 'en' ? `# Chapter ${chapter}: ${title}` : `# 第${chapter}章 ${title}`;
}

/**
 * Chapter prose of about `targetWords` words (characters in Chinese): narration
 * paragraphs of three to five sentences, broken up by two-line dialogue exchanges.
 * Stops at the first paragraph end past the target, so it never cuts a sentence.
 */
export function chapterDoc(bank: Bank, seed: number, chapter: number, title: string, targetWords: number): string {
  const rand = rng(seed);
  const narration = new ShuffleBag(bank.narration, rand);
  const dialogue = new ShuffleBag(bank.dialogue, rand);
  const slots = new SlotDrawer(bank, rand);
  const blocks: string[] = [chapterHeading(bank, chapter, title)];
  let words = countWords(blocks[0]);
  let lastWasDialogue = true; // open on narration
  while (words < targetWords) {
    const s = slots.next();
    let added: string[];
    if (!lastWasDialogue && rand() < 0.35) {
      added = dialogue.next().map((line) => fill(line, bank, s));
      lastWasDialogue = true;
    } else {
      const count = 3 + Math.floor(rand() * 3);
      added = [
        joinSentences(
          bank,
          Array.from({ length: count }, () => fill(narration.next(), bank, s)),
        ),
      ];
      lastWasDialogue = false;
    }
    for (const block of added) words += countWords(block);
    blocks.push(...added);
  }
  return blocks.join('\n\n');
}

/** Review evidence read from the reviewer's packet: words written and the length asked for. */
export interface ReviewEvidence {
  words: number | null;
  required: number | null;
}

const num = (s: string) => Number(s.replace(/[,，]/g, ''));

/** Reads "1,204 words" / "word count: 1204" / "字数：1204" and "at least 3000" / "至少3000字". */
export function readEvidence(text: string): ReviewEvidence {
  // "words written in this turn: 1204" is how the engine's review packet says it.
  const words =
    /(?:word count|words written|字数)[^\d\n]{0,20}(\d[\d,，]*)/i.exec(text) ?? /(\d[\d,]*)\s*words?\b/i.exec(text);
  const required =
    /(?:at least|minimum|min\.?|target|required|requirement|至少|不少于|目标)[^\d\n]{0,20}(\d[\d,，]*)/i.exec(text);
  return { words: words ? num(words[1]) : null, required: required ? num(required[1]) : null };
}

/**
 * A verdict line and three notes. Revise only on evidence: fewer than 80% of the words
 * asked for. Anything else passes, so a demo turn does not loop on reviews.
 */
export function reviewDoc(bank: Bank, seed: number, evidence: ReviewEvidence): string {
  const short = evidence.words !== null && evidence.required !== null && evidence.words < evidence.required * 0.8;
  const notes = short ? bank.reviewNotes.revise.slice(0, 3) : shuffled(bank.reviewNotes.pass, rng(seed)).slice(0, 3);
  const summary =
    bank.lang === 'en'
      ? short
        ? `The draft has ${evidence.words} words against ${evidence.required} requested; it needs another pass.`
        : 'The draft does what the scene needs; the notes below are refinements, not blockers.'
      : short
        ? `正文${evidence.words}字，要求${evidence.required}字，需要再改一轮。`
        : '这一稿完成了场景该做的事；以下意见是打磨建议，不影响通过。';
  // The verdict line in the author's language: both read the same to the job and the verdict badge (core/verdict.ts).
  const verdict = bank.lang === 'en' ? `Verdict: ${short ? 'revise' : 'pass'}` : `结论：${short ? '修改' : '通过'}`;
  return [verdict, '', summary, '', ...notes.map((n) => `- ${n}`)].join('\n');
}

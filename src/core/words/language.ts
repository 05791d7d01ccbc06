/**
 * The language a session's replies are in: set by the author's
 * substantive messages, changed by an explicit request ("reply in English from now on",
 * "以后用中文回复"), and kept by replies that carry no language of their own ("OK", "👍",
 * "1", "B", "Chapter 3"). A Chinese author answering "OK" still gets Chinese. Pure module.
 */
import { findUnitRefs } from './numerals';
import { detectLanguage } from '../text';

export type Language = 'zh' | 'en';

const ASK_ENGLISH =
  /\b(?:reply|replies|answer|respond|write|talk|speak|switch|use|chat|continue)\b[^.?!。？！]{0,30}\benglish\b|\bin (?:english|英文|英语)(?: please| pls| from now on)?|(?:用|说|讲|换成|改成|切换到|切到)\s*(?:英文|英语)|英文回复|英语回复|英文回答|英语回答/iu;
const ASK_CHINESE =
  /\b(?:reply|replies|answer|respond|write|talk|speak|switch|use|chat|continue)\b[^.?!。？！]{0,30}\b(?:chinese|mandarin)\b|\bin (?:chinese|mandarin|中文|汉语)(?: please| pls| from now on)?|(?:用|说|讲|换成|改成|切换到|切到)\s*(?:中文|汉语|普通话)|中文回复|中文回答/iu;

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;

/** Whether a message says something in a language, rather than only agreeing, choosing or pointing. */
export function carriesLanguage(message: string): boolean {
  let rest = message;
  for (const r of [...findUnitRefs(rest)].reverse()) rest = rest.slice(0, r.start) + ' ' + rest.slice(r.end);
  rest = rest.replace(/[\p{N}\p{P}\p{S}\s]+/gu, ' ');
  // Agreement and choice words every author uses whatever their language.
  const agreeing = (t: string): string =>
    t
      .replace(/\b(?:ok|okay|k|kk|yes|yep|yeah|yup|no|nope|nah|sure|thx|thanks|lol|haha|hmm|a|b|c|d)\b/giu, ' ')
      .replace(/好的|好吧|好啊|好|嗯+|行|可以|是的|对|没问题|谢谢|哈+/gu, ' ');
  rest = agreeing(rest);
  const whole = agreeing(message);
  const cjk = rest.match(CJK)?.length ?? 0;
  const latin = (t: string): number => t.replace(CJK, ' ').match(/[A-Za-z]{2,}/g)?.length ?? 0;
  // "写第三章" / "Write chapter 1" speak; "第三章" / "Chapter 3" alone, "好的", "ok" only point or agree.
  if (cjk >= 2 || (cjk >= 1 && (whole.match(CJK)?.length ?? 0) >= 3)) return true;
  // A single name ("Anna") is an answer, not a language switch.
  return latin(rest) >= 2 || (latin(rest) >= 1 && latin(whole) >= 2);
}

/** The language of this reply, given the session's language so far and the author's new message. */
/** The language a message asks the replies to be in ("reply in English from now on"), or null. */
function requestedLanguage(message: string): Language | null {
  const toEnglish = ASK_ENGLISH.test(message);
  const toChinese = ASK_CHINESE.test(message);
  return toEnglish === toChinese ? null : toEnglish ? 'en' : 'zh';
}

export function replyLanguage(session: Language, message: string): Language {
  return requestedLanguage(message) ?? (carriesLanguage(message) ? detectLanguage(message) : session);
}

/**
 * A session's language from its author messages in order (the first substantive one starts it).
 * While no message carries a language of its own ("OK", "1", "👍"), the author's interface
 * language answers when it is known, else the last message's script.
 */
export function sessionLanguage(messages: string[], fallback?: Language | null): Language {
  let lang: Language | null = null;
  // An explicit request wins from the first message on: "reply in Chinese please" starts in Chinese.
  for (const m of messages)
    lang =
      lang === null
        ? (requestedLanguage(m) ?? (carriesLanguage(m) ? detectLanguage(m) : null))
        : replyLanguage(lang, m);
  return lang ?? fallback ?? (messages.length ? detectLanguage(messages[messages.length - 1]!) : 'zh');
}

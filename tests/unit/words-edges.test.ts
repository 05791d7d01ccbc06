/**
 * Edges of the word rules around an author's message and the agent's reply: clauses and
 * sentences (utterance), the language a reply is in, offers of a next step and the proposals in a
 * closing paragraph, and answers (a refusal, a new instruction), in both languages.
 */
import { isNewInstruction, isRefusal } from '../../src/core/words/answers';
import { carriesLanguage, sessionLanguage } from '../../src/core/words/language';
import { countProposedChanges, isOfferQuestion, proposedStep } from '../../src/core/words/proposals';
import { isQuestionSentence, splitClauses, splitSentences } from '../../src/core/words/utterance';

const clauses = (message: string, references: { start: number; end: number }[] = []) =>
  splitClauses(message, references).map((c) => c.text.trim());
/** The span of `title` in `message`, as a rule that knows the author's file titles passes it. */
const spanOf = (message: string, title: string) => {
  const start = message.indexOf(title);
  return { start, end: start + title.length };
};

describe('clauses', () => {
  test("a title's own brackets do not end a clause", () => {
    const message = 'Delete "Notes (old)" please';
    expect(clauses(message, [spanOf(message, 'Notes (old)')])).toEqual([message]);
  });

  test('a title in a later sentence is found at its place in the message', () => {
    const message = 'OK. Move "Notes (old)", keep the rest';
    expect(clauses(message, [spanOf(message, 'Notes (old)')])).toEqual(['OK', 'Move "Notes (old)"', 'keep the rest']);
  });

  test('、 between two chapters joins a list, whatever the spaces around it', () => {
    expect(clauses('删掉第三章  、第四章')).toEqual(['删掉第三章  、第四章']);
    expect(clauses('删掉第三章、  第四章')).toEqual(['删掉第三章、  第四章']);
    expect(clauses('请删掉  第三章 、第四章')).toEqual(['请删掉  第三章 、第四章']);
  });

  test('、 after words that are not a reference ends a clause', () => {
    expect(clauses('第三章写完了、第四章还没')).toEqual(['第三章写完了', '第四章还没']);
  });

  test('no clause is blank', () => {
    for (const message of ['删掉第三章， ，保留第四章', 'Delete chapter 3, ', 'Keep chapter 2 ,  , cut chapter 5']) {
      const found = splitClauses(message);
      expect(found.length).toBeGreaterThan(0);
      for (const c of found) expect(c.text.trim()).not.toBe('');
    }
  });
});

describe('sentences', () => {
  test('no sentence is blank', () => {
    const found = splitSentences('Delete chapter 3. \nThanks');
    expect(found.map((s) => s.text.trim())).toEqual(['Delete chapter 3', 'Thanks']);
  });

  test('a question after a full stop and a space is still a question', () => {
    const [, second] = splitSentences('OK. why did you delete chapter 3');
    expect(isQuestionSentence(second!)).toBe(true);
    const [, ask] = splitSentences('Thanks. should I keep the prologue');
    expect(isQuestionSentence(ask!)).toBe(true);
  });
});

describe('language', () => {
  test('two chapter references alone carry no language', () => {
    expect(carriesLanguage('Chapter 3 / Chapter 12')).toBe(false);
    expect(carriesLanguage('第3章/第12章')).toBe(false);
    expect(sessionLanguage(['请帮我写第三章', 'Chapter 3 / Chapter 12'])).toBe('zh');
  });

  test('a list of chapters with stray letters carries no language', () => {
    expect(carriesLanguage('P.S. chapters 3 and 4')).toBe(false);
    expect(carriesLanguage('Chapters 3 and 4')).toBe(false);
    expect(sessionLanguage(['请帮我写第三章', 'Chapters 3 and 4'])).toBe('zh');
  });

  test('a short Chinese instruction carries Chinese', () => {
    expect(carriesLanguage('改吧')).toBe(true);
    expect(carriesLanguage('写第3章')).toBe(true);
    expect(sessionLanguage(['Please write chapter 1', '写第3章'])).toBe('zh');
  });

  test('two English words joined by a Chinese one carry a language', () => {
    expect(carriesLanguage('Anna和Bob')).toBe(true);
  });

  test('a first message that asks for a language starts the session in it', () => {
    expect(sessionLanguage(['Write chapter 1, and reply in Chinese please'])).toBe('zh');
    expect(sessionLanguage(['帮我写第一章，用英文回复'])).toBe('en');
    // Without a request the first message's own language starts it.
    expect(sessionLanguage(['Write chapter 1 please'])).toBe('en');
  });
});

describe('offers of a next step', () => {
  test('a doubled question mark still ends an offer', () => {
    expect(isOfferQuestion('Chapter 3 is done. Shall I continue??')).toBe(true);
    expect(isOfferQuestion('第三章写好了。要我继续吗？？')).toBe(true);
  });

  test('a choice word in an earlier sentence does not make the offer a choice', () => {
    expect(isOfferQuestion('第三章我还是保留了原来的结尾。要我继续吗？')).toBe(true);
  });

  test('a question that opens on the step after a comma is an offer', () => {
    expect(isOfferQuestion('第一章写完了，接着写第二章？')).toBe(true);
    expect(isOfferQuestion('Chapter 1 is saved, continue with chapter 2?')).toBe(true);
  });

  test('an offer that is not a question is not an offer question', () => {
    expect(isOfferQuestion('Chapter 3 is done. I can write chapter 4 next.')).toBe(false);
    expect(isOfferQuestion('第三章写好了。我可以接着写第四章。')).toBe(false);
  });

  test('a choice names no step', () => {
    expect(proposedStep('你更喜欢改后的第三章还是原来的？')).toBeNull();
    expect(proposedStep('Should I revise chapter 3 or chapter 4?')).toBeNull();
  });

  test("the question's own verb decides the step, not the proposal before it", () => {
    expect(proposedStep('I fixed the typos in chapter 2. Shall I write chapter 3?')).toMatchObject({
      action: 'write',
      units: { kind: 'chapter', from: 3, to: 3 },
    });
  });

  test('"the next chapter" names no unit when nothing was delivered', () => {
    expect(proposedStep('Shall I write the next chapter?')).toMatchObject({ action: 'write', units: null });
    expect(proposedStep('要我继续写下一章吗？')).toMatchObject({ action: 'write', units: null });
  });

  test('an offer that does not name the next unit does not follow the delivered ones', () => {
    expect(proposedStep('Shall I polish it?', [3])).toMatchObject({ action: 'edit', units: null });
    expect(proposedStep('要我再润色一下吗？', [3])).toMatchObject({ action: 'edit', units: null });
    expect(proposedStep('Shall I polish it?')).toMatchObject({ units: null });
  });
});

describe('proposals in the closing paragraph', () => {
  test('blank lines after the last paragraph do not hide its list', () => {
    const reply = 'Done.\n\n- cut the prologue\n- merge chapters 2 and 3\n\nWant me to apply these?\n\n';
    expect(countProposedChanges(reply)).toBe(2);
  });

  test('only the last two paragraphs count, with blank separator lines or lines of spaces', () => {
    const spaced =
      'Changes made:\n- cut the prologue\n- merged 2 and 3\n \nNext I could:\n \n- tighten chapter 4\n- add a scene';
    expect(countProposedChanges(spaced)).toBe(2);
    const plain = '已经改好：\n- 删了序章\n- 合并了第二三章\n\n接下来可以：\n\n- 精简第四章\n- 加一场戏';
    expect(countProposedChanges(plain)).toBe(2);
  });

  test('dashes inside sentences are not list items', () => {
    expect(countProposedChanges('Chapter 3 - done.\nChapter 4 - done.\nShall I go on?')).toBe(1);
  });

  test('numbered items past 9 count', () => {
    const list = Array.from({ length: 11 }, (_, i) => `${i + 1}. 修改第${i + 1}章的开头`).join('\n');
    expect(countProposedChanges(`建议如下：\n${list}`)).toBe(11);
  });
});

describe('answers', () => {
  test('work on episodes after a review is a new instruction, by its unit reference', () => {
    const reviewer = { agent: 'quality_reviewer' as const, readOnly: true };
    expect(isNewInstruction('write episodes 4 and 5', reviewer)).toBe(true);
    expect(isNewInstruction('写前三集', reviewer)).toBe(true);
  });

  test('a no that also says what not to touch is a refusal', () => {
    expect(isRefusal("no, don't change it")).toBe(true);
    expect(isRefusal('no, dont change it')).toBe(true);
    expect(isRefusal('不用了，别修改了')).toBe(true);
  });
});

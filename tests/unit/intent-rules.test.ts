/**
 * The building blocks of reading an author's words, pinned at their edges:
 * sentences and clauses, questions, suppositions and retractions, the session's language,
 * answers against new instructions, refusals.
 */
import { carriesLanguage, replyLanguage, sessionLanguage } from '../../src/core/words/language';
import {
  isConditionalSentence,
  isHedgedClause,
  isQuestionSentence,
  lastRetractionEnd,
  splitClauses,
  splitSentences,
  trailsOff,
} from '../../src/core/words/utterance';
import { actionsOf, isNewInstruction, isRefusal, routeActions } from '../../src/core/words/answers';

describe('sentences and clauses', () => {
  test('sentence ends keep abbreviations and decimals; the end mark is kept', () => {
    const s = splitSentences('Delete Ch. 10 now! Why? It is 1.5k words… ok');
    expect(s.map((x) => [x.text.trim(), x.end])).toEqual([
      ['Delete Ch. 10 now', '!'],
      ['Why', '?'],
      ['It is 1.5k words', '…'],
      ['ok', ''],
    ]);
    expect(s[1]!.start).toBe(18);
  });
  test('clauses split at commas, brackets, dashes and conjunctions, not inside a unit list or between 、-joined references', () => {
    expect(splitClauses('delete chapters 4, 5 and 10, keep the rest').map((c) => [c.sep, c.text.trim()])).toEqual([
      ['', 'delete chapters 4, 5 and 10'],
      [',', 'keep the rest'],
    ]);
    expect(splitClauses('删掉第三章、第四章（第五章留着）').map((c) => c.text)).toEqual([
      '删掉第三章、第四章',
      '第五章留着',
    ]);
    expect(splitClauses('delete chapter 3 - no wait').map((c) => [c.sep, c.text.trim()])).toEqual([
      ['', 'delete chapter 3'],
      ['-', 'no wait'],
    ]);
    expect(splitClauses('a、b').map((c) => c.text)).toEqual(['a', 'b']);
    expect(splitClauses('   ')).toEqual([]);
  });
  test.each([
    ['why did you delete chapter 3', true],
    ['Should I delete chapter 3', true],
    ['can you delete it', true],
    ["don't you think it drags", true],
    ["don't delete chapter 3", false],
    ['为什么要删第三章', true],
    ['第三章删不删', true],
    ['要不要删第三章', true],
    ['你觉得呢', true],
    ['删掉第三章', false],
    ['delete chapter 3', false],
    ['delete it, right', true],
  ])('"%s" asks: %s', (text, asks) => expect(isQuestionSentence({ text, end: '' })).toBe(asks));
  test('a question mark alone makes a question', () =>
    expect(isQuestionSentence({ text: '删除第三章', end: '？' })).toBe(true));
  test.each([
    ['if chapter 3 fails, delete it', true],
    ['如果不行就删了', true],
    ['要是不满意的话', true],
    ['delete chapter 3', false],
  ])('"%s" supposes: %s', (t, yes) => expect(isConditionalSentence(t)).toBe(yes));
  test.each([
    ['I might delete it later', true],
    ['我想删掉第三章', true],
    ['my editor said to delete it', true],
    ['cancel the job tomorrow', true],
    ['明天再删第三章', true],
    ['delete chapter 3', false],
  ])('"%s" hedges: %s', (t, yes) => expect(isHedgedClause(t)).toBe(yes));
  test.each([
    ['删第三章……', '……', true],
    ['delete chapter 3', '...', true],
    ['删第三章', '。。。', true],
    ['删第三章', '⋯', true],
    ['删第三章', '。', false],
    ['delete chapter 3', '.', false],
    ['delete chapter 3', '', false],
  ])('"%s%s" trails off: %s', (text, end, yes) => expect(trailsOff({ end })).toBe(yes));
  test('"no, actually" and "actually just" take back what came before', () => {
    const m = 'Rewrite chapter 4 from scratch — no, actually just the ending.';
    expect(lastRetractionEnd(m)).toBe(m.indexOf('no, actually') + 'no, actually'.length);
    expect(lastRetractionEnd('rewrite it, actually only the ending')).toBeGreaterThan(0);
  });
  test('a retraction voids what came before it, and only that', () => {
    expect(lastRetractionEnd('Delete chapter 3 - no wait, keep it')).toBe('Delete chapter 3 - no wait'.length);
    expect(lastRetractionEnd('算了，删掉第六章')).toBe(2);
    expect(lastRetractionEnd('delete chapter 3')).toBe(-1);
  });
});

describe('the session’s language', () => {
  test.each([
    ['OK', false],
    ['👍 ok', false],
    ['1', false],
    ['B', false],
    ['Chapter 3', false],
    ['第三章', false],
    ['好的', false],
    ['Anna', false],
    ['the second one', true],
    ['写第三章', true],
  ])('"%s" carries a language: %s', (m, yes) => expect(carriesLanguage(m)).toBe(yes));
  test('replies keep the session language unless the message speaks or asks', () => {
    expect(replyLanguage('zh', 'OK')).toBe('zh');
    expect(replyLanguage('en', '好的')).toBe('en');
    expect(replyLanguage('zh', 'Please write chapter 3 with more tension')).toBe('en');
    expect(replyLanguage('en', '帮我 polish 一下第三章的 dialogue')).toBe('zh');
    expect(replyLanguage('zh', 'reply in English from now on')).toBe('en');
    expect(replyLanguage('en', '以后用中文回复')).toBe('zh');
    expect(replyLanguage('en', 'answer in Chinese please')).toBe('zh');
    expect(replyLanguage('en', 'reply in 中文 please')).toBe('zh');
  });
  test('a session’s language: its first substantive message starts it; without one, the last message or the fallback', () => {
    expect(sessionLanguage(['👍', '写第一章吧', 'OK', '1'])).toBe('zh');
    expect(sessionLanguage(['写第一章吧', 'Switch to English please', 'ok'])).toBe('en');
    expect(sessionLanguage(['ok'])).toBe('en');
    expect(sessionLanguage([], 'en')).toBe('en');
    expect(sessionLanguage([])).toBe('zh');
  });
});

describe('answers against new instructions', () => {
  test('what a message asks for', () => {
    expect(actionsOf('写第五章')).toEqual(['write']);
    expect(actionsOf('review chapter 1 instead')).toEqual(['review']);
    expect(actionsOf('删掉第三章')).toEqual(['destroy']);
    expect(actionsOf('帮我列个大纲')).toEqual(['plan', 'create']);
    expect(actionsOf('Anna')).toEqual([]);
  });
  test('the work a previous route was doing', () => {
    expect(routeActions('quality_reviewer', true)).toEqual(['review']);
    expect(routeActions('planner', false)).toEqual(['plan']);
    expect(routeActions('hook_designer', false)).toEqual(['plan', 'write', 'edit']);
    expect(routeActions('writer', true)).toEqual(['write', 'edit', 'review']);
    expect(routeActions('writer', false)).toEqual(['write', 'edit']);
  });
  const reviewer = { agent: 'quality_reviewer' as const, readOnly: true };
  test.each([
    ['第五章', reviewer, false],
    ['看第五章吧', reviewer, false],
    ['写第五章', reviewer, true],
    ['Write chapter 5', { agent: 'planner' as const, readOnly: false }, true],
    ['Anna', { agent: 'writer' as const, readOnly: false }, false],
    ['write it in first person', { agent: 'writer' as const, readOnly: false }, false],
    ['Just review chapter 1 instead', { agent: 'writer' as const, readOnly: false }, true],
    ['forget it, write chapter 6', reviewer, true],
    ['the first one', reviewer, false],
    ['Review chapter 1 first', { agent: 'writer' as const, readOnly: false }, true],
    ['删掉第三章', reviewer, true],
    ['别写了', { agent: 'writer' as const, readOnly: false }, true],
    ['先帮我看看大纲', { agent: 'writer' as const, readOnly: false }, true],
    ['make it darker', null, false],
    ['give me three title ideas', null, true],
  ])('"%s" is a new instruction: %s', (m, prev, yes) => expect(isNewInstruction(m, prev)).toBe(yes));
  test.each([
    ['不用了', true],
    ['先不用', true],
    ['不太好，先别改', true],
    ['还是不要了', true],
    ['今天先到这吧，不用', true],
    ['no thanks', true],
    ['nah', true],
    ['not right now, thanks', true],
    ['no, leave the outline alone', true],
    ["I'd rather you didn't", true],
    ['no, write chapter 6 instead', false],
    ['好的', false],
    ['yes', false],
    ['', false],
    ['no' + ' really'.repeat(20), false],
  ])('"%s" declines: %s', (m, yes) => expect(isRefusal(m)).toBe(yes));
});

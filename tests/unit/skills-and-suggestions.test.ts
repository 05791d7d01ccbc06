/**
 * Pure rules of skills and suggestions: SKILL.md front matter parsing (CRLF, BOM, extra keys
 * kept as data), token fitting that never splits a character, and the cleaning of a model's
 * suggestions answer.
 */
import { encode } from 'gpt-tokenizer';
import { cleanSuggestions } from '../../src/activities/turn/suggestions';
import { fitToTokens } from '../../src/activities/tools/skill-tools';
import { parseSkillMd, SkillPackageError } from '../../src/skills/package';

test('SKILL.md: CRLF and a BOM are fine; extra front-matter keys are kept as data; name and description are required', () => {
  const m = parseSkillMd(
    '\uFEFF---\r\nname: " Scene Beats "\r\ndescription: |\r\n  Plan scenes\r\n  in beats\r\nallowed-tools: [Bash]\r\nlicense: MIT\r\n---\r\n\r\n# Method\r\nDo it.\r\n',
  );
  expect(m).toEqual({
    name: 'Scene Beats',
    description: 'Plan scenes in beats',
    body: '# Method\nDo it.',
    metadata: { 'allowed-tools': ['Bash'], license: 'MIT' },
  });
  for (const bad of [
    '---\nname: x\n---\n',
    '---\ndescription: d\n---\n',
    '---\nname: a/b\ndescription: d\n---\n',
    '---\n- a list\n---\n',
    'no front matter',
  ])
    expect(() => parseSkillMd(bad)).toThrow(SkillPackageError);
});

test('fitToTokens keeps whole characters and stays within the budget', () => {
  const text = '🌊'.repeat(300) + ' tide'.repeat(300);
  const cut = fitToTokens(text, 50);
  expect(text.startsWith(cut)).toBe(true);
  expect(cut.length).toBeGreaterThan(0);
  expect(/[\uD800-\uDBFF]$/.test(cut)).toBe(false);
  expect(encode(cut).length).toBeLessThanOrEqual(50);
  expect(fitToTokens('short', 50)).toBe('short');
  expect(fitToTokens('anything', 0)).toBe('');
});

test('suggestions: JSON or lines, numbering stripped, at most four, other languages dropped, fewer than two is none', () => {
  expect(
    cleanSuggestions(
      '["1. Write chapter 3", "Write chapter 3", "- Add a map", "写第三章", "Name the ship", "More", "Even more"]',
      'en',
    ),
  ).toEqual(['Write chapter 3', 'Add a map', 'Name the ship', 'More']);
  expect(cleanSuggestions('1、继续写第三章\n2、审阅第二章\n3. Review chapter 2', 'zh')).toEqual([
    '继续写第三章',
    '审阅第二章',
  ]);
  expect(cleanSuggestions('Only one idea', 'en')).toEqual([]);
  expect(cleanSuggestions('["x".repeat]', 'en')).toEqual([]);
  expect(cleanSuggestions(JSON.stringify(['a'.repeat(200), 'Write more']), 'en')[0]).toHaveLength(80);
});

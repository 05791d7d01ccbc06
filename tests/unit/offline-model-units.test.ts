/**
 * Pure pieces of the offline model: streamed piece splitting, the reading of packets
 * and chapter numbers, and the router heuristics' edge cases.
 */
import { authorText, chapterNumber } from '../../src/offline-model/conversation';
import { routeMessage, splitPieces } from '../../src/offline-model';

describe('splitPieces', () => {
  it.each([
    'Plain words, with punctuation.',
    '  leading and trailing spaces  ',
    'tabs\tand\n\nnewlines\r\n',
    '中文没有空格，逐字成片。Mixed 中英 text!',
    'emoji 🌊 and surrogate pairs 𝒜',
    'averyveryverylongwordwithoutanyspacesatallinit',
    '<file>\n# Title\n</file>',
    '',
  ])('pieces of %j concatenate back exactly', (text) => {
    const pieces = splitPieces(text);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) expect(p.length).toBeGreaterThan(0);
  });

  it('cuts English by word and Chinese by character', () => {
    expect(splitPieces('The fog rolled in.')).toEqual(['The', ' fog', ' rolled', ' in.']);
    expect(splitPieces('雾来了。')).toEqual(['雾', '来', '了', '。']);
    expect(splitPieces('averyveryverylongword').every((p) => p.length <= 12)).toBe(true);
  });
});

describe('reading requests', () => {
  it('finds the chapter in English and Chinese forms', () => {
    expect(chapterNumber('please write Chapter 12 now')).toBe(12);
    expect(chapterNumber('fix ch. 4')).toBe(4);
    expect(chapterNumber('写第3章')).toBe(3);
    expect(chapterNumber('写第二十三章')).toBe(23);
    expect(chapterNumber('no number here')).toBeNull();
  });

  it("takes the author's words from packets and ignores the rest", () => {
    const routerInput =
      '[previous assistant ending]\n写完了第二章。\n[previous routing]\n{"a":1}\n[user message]\nWhat happens next?';
    expect(authorText([{ role: 'user', content: routerInput }])).toBe('What happens next?');
    // A packet with no author section falls back to an earlier author message.
    expect(
      authorText([
        { role: 'user', content: '请写第一章' },
        { role: 'user', content: '[handoff packet]\nplanner finished the outline' },
      ]),
    ).toBe('请写第一章');
    expect(authorText([{ role: 'user', content: 'plain message' }])).toBe('plain message');
  });
});

describe('router heuristics', () => {
  it('treats a critique that asks for rewritten prose as a write, not a review', () => {
    expect(routeMessage('Critique the dialogue and rewrite the scene').workflow_plan).toBe('quick');
    expect(routeMessage('Critique the dialogue in chapter 2').workflow_plan).toBe('review_only');
  });

  it('plans the full team when both a plan and hooks are asked for', () => {
    expect(routeMessage('Plan the novel and design the opening hooks, then write chapter 1')).toMatchObject({
      workflow_plan: 'full',
      workflow_agents: ['planner', 'hook_designer', 'writer'],
      current_agent: 'planner',
      write_content: true,
    });
  });

  it('keeps the scope within 40 characters', () => {
    const scope = routeMessage(`Write chapter 2 ${'with much more detail '.repeat(10)}`).scope;
    expect(scope.length).toBeLessThanOrEqual(40);
    expect(scope.startsWith('Write chapter 2')).toBe(true);
  });
});

/**
 * What a step does to the stored context text, and how the working set names a file the
 * context already shows whole: the raw context is only trimmed and, past a fallback cap, cut
 * at a line boundary with a line saying so (its line breaks never collapse); a file shown
 * `[full]` in the context is one line in the working set, in the session's language.
 */
import { capContextText, contextCutNote } from '../../src/activities/context/budget';
import { renderWorkingSet, shownInContextLine } from '../../src/activities/context/working-set';

const context = [
  '## Related content',
  '### Mara (id=a) [full]',
  'Mara keeps the lighthouse.',
  '',
  '',
  '    She counts the ships.\tEvery night.',
  '### Ferry law (id=b) [full]',
  'No crossing after dark.',
].join('\n');

describe('raw context: strip and a newline-preserving fallback cap', () => {
  test('under the cap only the ends are trimmed: blank lines, indents and tabs inside stay as they are', () => {
    const out = capContextText(`\n\n  ${context}\n\n \n`, 10_000);
    expect(out).toEqual({ text: context, cut: false });
  });

  test('over the cap it is cut at the last line break within the cap and says it was cut', () => {
    const cap = context.indexOf('Ferry law') + 3;
    const out = capContextText(context, cap);
    expect(out.cut).toBe(true);
    const kept = context.slice(0, context.lastIndexOf('\n', cap));
    expect(out.text).toBe(`${kept}\n${contextCutNote(kept.length, context.length)}`);
    // The kept part ends on a whole line and keeps its blank lines.
    expect(out.text).toContain('Mara keeps the lighthouse.\n\n\n    She counts the ships.\tEvery night.\n[context cut');
    expect(out.text).not.toContain('Ferry');
    expect(contextCutNote(kept.length, context.length)).toMatch(/cut here: showing \d+ of \d+ characters/);
  });

  test('one long line is cut inside the cap, never past it, and not inside a surrogate pair', () => {
    const line = `${'x'.repeat(9)}😀${'y'.repeat(20)}`;
    const out = capContextText(line, 10);
    expect(out.text.split('\n')[0]).toBe('x'.repeat(9));
    expect(out.text.split('\n')[1]).toBe(contextCutNote(9, line.length));
  });
});

describe('working set: a file already [full] in the context is one line', () => {
  const files = [
    {
      id: 'a'.repeat(24),
      title: '灯塔守夜人',
      type: 'character',
      content: '她数着船。'.repeat(40),
      version: 3,
      authorEdits: [],
    },
    {
      id: 'b'.repeat(24),
      title: 'Ferry log',
      type: 'draft',
      content: 'The ferry left at dawn.',
      version: 1,
      authorEdits: [],
    },
  ];
  const limits = { maxFiles: 8, maxChars: 60_000, maxTokens: 100_000 };

  test('in a Chinese session: 标题 (id=…)（全文见项目上下文）, and its text is not repeated', () => {
    const ws = renderWorkingSet(files, new Set([files[0]!.id]), limits, 'zh');
    expect(ws.text).toContain(`\n- 灯塔守夜人 (id=${files[0]!.id})（全文见项目上下文）\n`);
    expect(ws.text).not.toContain('她数着船。');
    expect(ws.whole).toEqual([{ fileId: files[1]!.id, version: 1 }]);
  });

  test('in an English session: title (id=…) (full text in the project context)', () => {
    const ws = renderWorkingSet(files, new Set([files[0]!.id]), limits, 'en');
    expect(ws.text).toContain(`\n- 灯塔守夜人 (id=${files[0]!.id}) (full text in the project context)\n`);
    expect(shownInContextLine('Ferry log', 'x', 'en')).toBe('- Ferry log (id=x) (full text in the project context)');
    expect(shownInContextLine('Ferry log', 'x', 'zh')).toBe('- Ferry log (id=x)（全文见项目上下文）');
  });
});

/**
 * edit_file's five operations on a file's text (seed: 精确编辑 replace/insert/append/delete, and
 * a whole rewrite): what each leaves, and which span of the old text it replaced.
 */
import { applyEdit } from '../../src/activities/tools/file-tools';
import type { ToolArgs } from '../../src/core/model/tool-schemas';

const text = 'The gate was shut.\nMara knocked twice.\nNobody came.';
const edit = (args: Partial<ToolArgs<'edit_file'>>) =>
  applyEdit(text, { id: 'f'.repeat(24), operation: 'replace', ...args } as ToolArgs<'edit_file'>);

describe('edit_file operations', () => {
  test('insert puts the text right before the anchor, or right after it, and replaces nothing', () => {
    const anchor = 'Mara knocked twice.';
    expect(edit({ operation: 'insert', anchor, position: 'before', text: 'Rain fell. ' })).toEqual({
      next: 'The gate was shut.\nRain fell. Mara knocked twice.\nNobody came.',
      span: null,
    });
    expect(edit({ operation: 'insert', anchor, position: 'after', text: ' Then a third time.' })).toEqual({
      next: 'The gate was shut.\nMara knocked twice. Then a third time.\nNobody came.',
      span: null,
    });
  });

  test('insert without a position goes after the anchor, at its first occurrence only', () => {
    expect(
      applyEdit('a-b-a', { id: 'x', operation: 'insert', anchor: 'a', text: '!' } as ToolArgs<'edit_file'>),
    ).toEqual({
      next: 'a!-b-a',
      span: null,
    });
  });

  test('replace and delete change only the anchor, and report its span', () => {
    expect(edit({ operation: 'replace', anchor: 'twice', text: 'three times' })).toEqual({
      next: 'The gate was shut.\nMara knocked three times.\nNobody came.',
      span: [text.indexOf('twice'), text.indexOf('twice') + 5],
    });
    expect(edit({ operation: 'delete', anchor: '\nNobody came.' })).toEqual({
      next: 'The gate was shut.\nMara knocked twice.',
      span: [text.indexOf('\nNobody'), text.length],
    });
  });

  test('append adds a line at the end; rewrite replaces the whole text', () => {
    expect(edit({ operation: 'append', text: 'Then the dog barked.' })).toEqual({
      next: `${text}\nThen the dog barked.`,
      span: null,
    });
    expect(edit({ operation: 'rewrite', text: 'All new.' })).toEqual({ next: 'All new.', span: [0, text.length] });
  });

  test('replacement text is taken literally, "$&" and all', () => {
    expect(edit({ operation: 'insert', anchor: 'Nobody', position: 'before', text: '$& ' }).next).toContain(
      '$& Nobody',
    );
  });
});

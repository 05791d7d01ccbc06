/** The CLI's tool cards: an intentional refusal reads as what it is, never as "failed". */
import { TurnRenderer } from '../../src/cli/render';
import { draft, makeEvent } from '../../src/core/events';

function render(data: Parameters<typeof draft<'tool_result'>>[1]): string {
  let out = '';
  const r = new TurnRenderer({ write: (s) => (out += s), tty: false });
  r.event(makeEvent(draft('tool_result', data, { turnId: 't', toolCallId: 'c1' }), 1, 'now'));
  return out;
}

test('tool cards tell the truth in the CLI: kept your edits, asking first, read-only; only real failures say failed', () => {
  const kept = render({
    name: 'delete_file',
    ok: false,
    errorType: 'author_edit_protected',
    message: 'ask first',
    refusal: 'kept_your_edits',
  });
  expect(kept).toContain('kept your edits');
  expect(kept).not.toMatch(/failed/);
  const stale = render({ name: 'edit_file', ok: false, errorType: 'stale_content', refusal: 'kept_your_edits' });
  expect(stale).toContain('kept your edits');
  const asking = render({ name: 'edit_file', ok: false, errorType: 'clarify_first', refusal: 'asking_first' });
  expect(asking).toContain('asking first');
  expect(asking).not.toMatch(/failed/);
  expect(render({ name: 'edit_file', ok: false, errorType: 'read_only_request', refusal: 'read_only' })).toContain(
    'read-only turn',
  );
  expect(render({ name: 'edit_file', ok: false, errorType: 'not_found', message: 'No file' })).toContain(
    '✗ edit_file failed: not_found — No file',
  );
});

test('an edit that changed the author’s own text says so, with the version that undoes it', () => {
  expect(
    render({ name: 'edit_file', ok: true, result: { author_edits_touched: true, previous_version: 3 } }),
  ).toContain('changed text you wrote (undo: restore version 3)');
  expect(render({ name: 'edit_file', ok: true, result: { version: 4 } })).toBe('');
});

test('an approval request shows what would go and to whom it belongs; the decision reads plainly', () => {
  let out = '';
  const r = new TurnRenderer({ write: (s) => (out += s), tty: false });
  r.event(
    makeEvent(
      draft(
        'approval_requested',
        {
          approvalId: 's2-c1',
          fileId: 'f',
          title: 'Chapter 3',
          action: 'delete',
          files: [{ id: 'f', title: 'Chapter 3' }],
          preview: 'Chapter 3: It rained.',
          expiresAt: 'later',
        },
        { turnId: 't' },
      ),
      1,
      'now',
    ),
  );
  r.event(makeEvent(draft('approval_decided', { approvalId: 's2-c1', decision: 'deny' }, { turnId: 't' }), 2, 'now'));
  expect(out).toContain('Approval needed: delete "Chapter 3" (you wrote it).');
  expect(out).toContain('Chapter 3: It rained.');
  expect(out).toContain('declined: nothing was changed');
});

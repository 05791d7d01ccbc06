/**
 * Handoff packets as they are today: a handoff's packet always carries the fixed rules (do
 * not redo what is done, do not change the files just delivered unless the todo says so, do
 * not add output the author did not ask for); a continuation round's carries the saved files
 * and the author's scope. Exact texts, so a dropped line fails.
 */
import {
  FILE_STREAM_CONTINUATION_MARKER,
  HANDOFF_PACKET_MARKER,
  REVIEW_EVIDENCE_MARKER,
  WRITER_QUESTION_MARKER,
} from '../../src/core/model/markers';
import { buildPacket, FIXED_HANDOFF_RULES } from '../../src/workflows/packets';

const delivered = [
  { fileId: 'f1', title: 'Chapter 1', type: 'draft' },
  { fileId: 'f2', title: 'Outline', type: 'outline' },
];

test('the three fixed handoff rules', () => {
  expect(FIXED_HANDOFF_RULES).toEqual([
    'Do not redo what is already done.',
    'Do not modify the files just delivered unless the todo says so.',
    'Do not add output the author did not ask for.',
  ]);
});

test('a planned handoff: marker, route, fixed rules, scope, todo, delivered files', () => {
  expect(
    buildPacket({
      from: 'planner',
      to: 'writer',
      kind: 'planned',
      scope: 'chapter 1',
      note: 'write chapter 1',
      delivered,
    }),
  ).toBe(
    [
      HANDOFF_PACKET_MARKER,
      'From planner to writer (planned).',
      '- Do not redo what is already done.',
      '- Do not modify the files just delivered unless the todo says so.',
      '- Do not add output the author did not ask for.',
      "Author's scope: chapter 1",
      'Todo: write chapter 1',
      'Files delivered in this turn:\n- Chapter 1 (id=f1, draft)\n- Outline (id=f2, outline)',
    ].join('\n'),
  );
});

test('no scope, no files: the scope falls back to the message and no file list is added', () => {
  const p = buildPacket({
    from: 'writer',
    to: 'planner',
    kind: 'writer_after_question',
    scope: '',
    note: 'n',
    delivered: [],
  });
  expect(p).toContain('From writer to planner (writer after question).');
  expect(p).toContain("Author's scope: (as in the message)");
  expect(p).not.toContain('Files delivered');
  expect(p).not.toContain(REVIEW_EVIDENCE_MARKER);
});

test('review evidence: words, length requirements joined, the one-summary line, the writer’s question verbatim', () => {
  const p = buildPacket({
    from: 'writer',
    to: 'quality_reviewer',
    kind: 'review_gate',
    scope: 's',
    note: 'review gate',
    delivered: [],
    review: { bodyWords: 2100, lengthRequirements: ['两千字左右', '3k words'], writerQuestion: '要我继续写第二章吗？' },
  });
  expect(p).toContain("Author's scope: s\nTodo: review gate\n");
  expect(p).toContain(
    `${REVIEW_EVIDENCE_MARKER}\nBody words written in this turn: 2100\nAuthor's length requirements: 两千字左右 | 3k words\nJudge length by these figures. You write the one summary the author sees for this turn.\n${WRITER_QUESTION_MARKER} 要我继续写第二章吗？`,
  );
  const none = buildPacket({
    from: 'writer',
    to: 'quality_reviewer',
    kind: 'review_gate',
    scope: 's',
    note: 'n',
    delivered: [],
    review: { bodyWords: 0, lengthRequirements: [], writerQuestion: null },
  });
  expect(none).toContain("Author's length requirements: (none stated)");
  expect(none).not.toContain(WRITER_QUESTION_MARKER);
});

test('a continuation round: its own marker first, saved files, scope, and what to do next', () => {
  const p = buildPacket({
    from: 'writer',
    to: 'writer',
    kind: 'continuation',
    scope: 'chapters 1-2',
    note: 'ignored',
    delivered,
  });
  expect(p).toBe(
    [
      FILE_STREAM_CONTINUATION_MARKER,
      'Your last reply ended right after a finished <file> block and the file is saved.',
      'Saved in this turn:\n- Chapter 1 (id=f1, draft)\n- Outline (id=f2, outline)',
      "Author's scope: chapters 1-2",
      "If this turn's request asked for more that is not written yet, write the next part now; if everything it asked for is written, give the author a short summary of what was saved. Unfinished items on the task board are context, not instructions: write nothing beyond this turn's scope. Do not rewrite saved files.",
    ].join('\n'),
  );
  const bare = buildPacket({ from: 'writer', to: 'writer', kind: 'continuation', scope: '', note: '', delivered: [] });
  expect(bare.split('\n')).toHaveLength(4);
  expect(bare).toContain("Author's scope: (as in the message)");
  expect(bare).not.toContain('Saved in this turn');
  expect(bare).not.toContain(HANDOFF_PACKET_MARKER);
});

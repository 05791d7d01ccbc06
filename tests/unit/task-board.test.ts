/** Task board finalize rules: ranges, units, artifacts, deleted files. Pure. */
import { finalizeBoard, missingUnits, titleUnits } from '../../src/core/book/task-board-rules';

test('titleUnits reads ranges and single units in Chinese and English', () => {
  expect(titleUnits('写第2-5集')).toEqual([2, 3, 4, 5]);
  expect(titleUnits('第2集到第4集')).toEqual([2, 3, 4]);
  expect(titleUnits('第3至5章初稿')).toEqual([3, 4, 5]);
  expect(titleUnits('Draft chapters 2–5')).toEqual([2, 3, 4, 5]);
  expect(titleUnits('Chapters 7 to 8')).toEqual([7, 8]);
  expect(titleUnits('Chapter 3: The Storm')).toEqual([3]);
  expect(titleUnits('第10章')).toEqual([10]);
  expect(titleUnits('Outline the story')).toBeNull();
  // Chinese numerals, through the shared parser.
  expect(titleUnits('第二到五章')).toEqual([2, 3, 4, 5]);
  // The one parser reads a backwards range as the same range; an absurdly long one is not a task.
  expect(titleUnits('chapters 5-2')).toEqual([2, 3, 4, 5]);
  expect(titleUnits('chapters 1-5000')).toBeNull();
});

const task = (title: string, extra: Record<string, unknown> = {}) => ({
  id: 't',
  title,
  status: 'in_progress',
  ...extra,
});
const body = (title: string) => ({ title, body: true });

test('a range is done only when every unit has a file; otherwise done units and progress', () => {
  const partial = finalizeBoard([task('第2-5集')], {
    written: [body('第2集'), body('第3集')],
    liveUnits: new Set([2, 3]),
  });
  expect(partial.changed).toBe(true);
  expect(partial.tasks[0]).toMatchObject({ status: 'in_progress', doneUnits: [2, 3], progress: '2/4 written: 2, 3' });
  const done = finalizeBoard(partial.tasks, {
    written: [body('第4集'), body('第5集')],
    liveUnits: new Set([2, 3, 4, 5]),
  });
  expect(done.tasks[0]).toMatchObject({ status: 'done', doneUnits: [2, 3, 4, 5] });
});

test('units whose files were deleted drop out; only files written this turn add units', () => {
  const before = [task('Chapters 1-4', { doneUnits: [1, 2, 3] })];
  const r = finalizeBoard(before, { written: [body('Chapter 4')], liveUnits: new Set([1, 3, 4]) });
  expect(r.tasks[0]).toMatchObject({ status: 'in_progress', doneUnits: [1, 3, 4] });
  // A chapter that exists but was not written this turn does not count.
  const untouched = finalizeBoard([task('Chapter 2')], { written: [body('Chapter 3')], liveUnits: new Set([2, 3]) });
  expect(untouched.changed).toBe(false);
});

test('a task with an artifact needs that file; outline files carry no chapter units; other states are left alone', () => {
  const tasks = [task('整理大纲', { artifact: '大纲' }), task('第1章'), { id: 'x', title: '第1章', status: 'todo' }];
  const r = finalizeBoard(tasks, { written: [{ title: '第1章大纲', body: false }], liveUnits: new Set() });
  expect(r.changed).toBe(false);
  const r2 = finalizeBoard(tasks, {
    written: [{ title: '大纲', body: false }, body('第1章')],
    liveUnits: new Set([1]),
  });
  expect(r2.tasks.map((t) => t.status)).toEqual(['done', 'done', 'todo']);
});

test('missingUnits lists the units of a range with no live file', () => {
  expect(missingUnits('chapters 1-3', new Set([1]))).toEqual([2, 3]);
  expect(missingUnits('Polish the style', new Set())).toEqual([]);
});

/**
 * The board beside a running job, and a new job's range: a chapter the job is about to write
 * is not offered to be started by hand (two files would name it), and the chapter it writes
 * now cannot be deleted from under it. The job writes in order, so the one it writes now is
 * the first of its range not done; a new job starts at the first chapter the book lacks.
 */
import { firstUnwritten, jobWritesOf } from '../../studio/src/pages/job-chapters';
import type { BoardData, BoardItem } from '../../studio/src/pages/manuscript-api';

const item = (number: number | null): BoardItem =>
  ({
    fileId: null,
    number,
    title: `Chapter ${number}`,
    status: 'planned',
    words: 0,
    wordGoal: null,
    synopsis: '',
  }) as BoardItem;
const job: NonNullable<BoardData['writingJob']> = {
  id: 'j',
  status: 'running',
  from: 2,
  to: 6,
  done: [2, 3],
  writing: 4,
};

test('what the running job does with each chapter: now, later, or nothing', () => {
  expect(jobWritesOf(item(4), job)).toBe('now');
  expect(jobWritesOf(item(5), job)).toBe('later');
  expect(jobWritesOf(item(6), job)).toBe('later');
  // Written already, outside the range, unnumbered, or no job: the author's to start or delete.
  expect(jobWritesOf(item(3), job)).toBeNull();
  expect(jobWritesOf(item(1), job)).toBeNull();
  expect(jobWritesOf(item(7), job)).toBeNull();
  expect(jobWritesOf(item(null), job)).toBeNull();
  expect(jobWritesOf(item(4), null)).toBeNull();
});

test("a new job's range starts at the first chapter the book does not have yet", () => {
  expect(firstUnwritten(new Map())).toBe(1);
  expect(firstUnwritten(new Map([[1, 900]]))).toBe(2);
  expect(
    firstUnwritten(
      new Map([
        [1, 900],
        [2, 800],
        [4, 700],
      ]),
    ),
  ).toBe(3);
});

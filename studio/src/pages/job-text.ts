/** How Studio names a job's chapters: "Chapters 1–3" / "第1–3章" (shared by the jobs screens and the task board). */
import { type Dict, fmt } from '../i18n';

export const rangeText = (t: Dict, from: number, to: number): string =>
  from === to ? fmt(t.jobRangeOne, { n: from }) : fmt(t.jobRange, { from, to });

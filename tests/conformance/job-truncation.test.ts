/**
 * A chapter of a long job cut off at the model's output limit (`finish_reason: "length"`
 * inside its `<file>` body): the job does not count it as written. It stops resumably at that
 * chapter, says why, and keeps the part that was written.
 */
import { api, createHarness, createProjectAndSession, type Harness } from '../helpers/harness';
import type { ScriptEntry } from '../../src/offline-model';
import { chapterSnapshot, startJob, waitFor } from '../workflows/job-helpers';
import { prose } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { OPENAI_MODEL: 'offline:openai' } });
});
afterAll(async () => h?.close());
afterEach(() => h.model.reset());

const asks = (n: number) => ({ agent: 'writer' as const, contains: `Write Chapter ${n} of the story` });
const opens = (n: number): ScriptEntry => ({
  match: asks(n),
  reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: `Chapter ${n}` } }] },
});
const PART = prose(40);

test('a truncated chapter stops the job at that chapter, not counted as done, with its written part kept', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  const outline = Array.from({ length: 2 }, (_, i) => `Chapter ${i + 1}: Part ${i + 1} — something happens`).join('\n');
  expect(
    (
      await api(h, 'POST', '/api/v1/files', {
        projectId,
        type: 'outline',
        title: 'Outline',
        content: `# Outline\n\n${outline}`,
      })
    ).status,
  ).toBe(201);
  h.model.script([
    opens(1),
    { match: asks(1), reply: { content: `<file>\n# Chapter 1\n\n${prose(80)}\n</file>` } },
    { match: asks(1), reply: { content: 'Chapter 1 is saved.' } },
    opens(2),
    { match: asks(2), reply: { content: `<file>\n${PART}`, finishReason: 'length' } },
  ]);
  const { jobId, workflowId } = await startJob(h, { projectId, sessionId, chapters: { from: 1, to: 2 } });
  const failed = await waitFor('job stopped at chapter 2', async () => {
    const j = (
      await api<{ status: string; chaptersDone: number[]; failedChapter: number | null; failure: string | null }>(
        h,
        'GET',
        `/api/v1/jobs/${jobId}`,
      )
    ).body;
    return j.status === 'failed' && j.failedChapter === 2 ? j : null;
  });
  expect(failed.chaptersDone).toEqual([1]);
  expect(failed.failure).toMatch(/chapter 2: turn \w+ was cut off at the model's output limit/);
  const chapter2 = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 2' }).lean();
  expect(chapter2?.content.trim()).toBe(PART);
  expect([...(await chapterSnapshot(h, projectId)).keys()]).toContain(1);
  await h.runtime.temporal.workflow.getHandle(workflowId).terminate('test over');
});

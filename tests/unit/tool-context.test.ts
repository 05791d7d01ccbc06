/**
 * Nothing the system writes authorises anything: a job's chapter and revision
 * messages reach the tools as no author message at all, so author protection asks instead.
 */
import { toolContextFor } from '../../src/activities/tools/tool-context';
import { authorAskedFor } from '../../src/core/words/author-scope';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { loadConfig } from '../../src/config';
import { read } from './read';

const deps = {
  models: {} as never,
  redis: {} as never,
  llm: {} as never,
  config: loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } }),
  logger: {} as never,
  clock: () => new Date(),
  caches: createWorkerCaches(),
};
const input = {
  turnId: 't',
  run: 1,
  step: 1,
  agent: 'writer' as const,
  toolCallId: 'c',
  slot: 1,
  flags: { readOnly: false, clarifyFirst: false },
};
const message = 'Revise chapter 2: rewrite chapter 2 so that it meets the outline.';

test('a job turn’s message is not the author’s: it authorises no rewrite', () => {
  const job = toolContextFor(deps, { projectId: 'p', ownerId: 'o', message, jobId: 'j1' }, input, 'k', (d) => d);
  expect(job.authorMessage).toBe('');
  expect(authorAskedFor({ reading: read(job.authorMessage) }, { id: 'f', title: 'Chapter 2' }, 'rewrite')).toBe(false);
  const author = toolContextFor(deps, { projectId: 'p', ownerId: 'o', message }, input, 'k', (d) => d);
  expect(authorAskedFor({ reading: read(author.authorMessage) }, { id: 'f', title: 'Chapter 2' }, 'rewrite')).toBe(
    true,
  );
});

test('the author’s decision on an approval reaches the tool', () => {
  const ctx = toolContextFor(
    deps,
    { projectId: 'p', ownerId: 'o', message },
    { ...input, approval: { approvalId: 's1-c', decision: 'approve' } },
    'k',
    (d) => d,
  );
  expect(ctx.approval).toEqual({ approvalId: 's1-c', decision: 'approve' });
});

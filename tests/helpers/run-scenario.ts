import { answerApprovals, api, createProjectAndSession, type Harness, postTurn, waitTurn } from './harness';
import { AUTHOR_FILE_ID, type Scenario } from '../fixtures/scenarios';
import { writeVersion } from '../../src/db/file-store';
import type { TurnOutcome } from '../../src/core/turn/turn-types';

/** Runs one representative scenario to its end; returns the turn id and outcome. */
export async function runScenario(h: Harness, s: Scenario): Promise<{ turnId: string; outcome: TurnOutcome }> {
  h.model.reset();
  const { sessionId, projectId } = await createProjectAndSession(h);
  if (s.setup === 'author') {
    await h.runtime.models.FileVersion.deleteMany({ fileId: AUTHOR_FILE_ID });
    await h.runtime.models.File.deleteOne({ _id: AUTHOR_FILE_ID });
    await h.runtime.models.File.create({
      _id: AUTHOR_FILE_ID,
      projectId,
      ownerId: 'local',
      type: 'draft',
      title: 'Chapter 9',
      content: '',
      versionCount: 0,
    });
    await writeVersion(h.runtime.models, AUTHOR_FILE_ID, 'The author wrote chapter nine.', {
      author: 'author',
      operation: 'author_edit',
    });
  }
  h.model.script(s.script);
  const turnId = await postTurn(h, sessionId, s.message);
  if (s.during === 'interrupt') {
    await h.model.waitForRequests(3);
    await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {});
  } else if (s.during === 'steer') {
    await h.model.waitForRequests(2);
    await api(h, 'POST', `/api/v1/turns/${turnId}/steer`, { message: 'Keep it short' });
  }
  const result = waitTurn(h, turnId);
  if (s.during === 'approve') await answerApprovals(h, turnId, 'approve', result);
  const outcome = await result;
  if (outcome.status !== s.expectStatus)
    throw new Error(`scenario ${s.name}: expected ${s.expectStatus}, got ${outcome.status}`);
  if (h.model.failures.length)
    throw new Error(`scenario ${s.name}: model script failures ${h.model.failures.join('; ')}`);
  return { turnId, outcome };
}

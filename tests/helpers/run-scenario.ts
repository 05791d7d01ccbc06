import { api, createProjectAndSession, type Harness, postTurn, waitTurn } from './harness';
import type { Scenario } from '../fixtures/scenarios';
import type { TurnOutcome } from '../../src/shared/turn-types';

/** Runs one representative scenario to its end; returns the turn id and outcome. */
export async function runScenario(h: Harness, s: Scenario): Promise<{ turnId: string; outcome: TurnOutcome }> {
  h.model.reset();
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(s.script);
  const turnId = await postTurn(h, sessionId, s.message);
  if (s.during === 'interrupt') {
    await h.model.waitForRequests(3);
    await api(h, 'POST', `/api/v1/turns/${turnId}/interrupt`, {});
  } else if (s.during === 'steer') {
    await h.model.waitForRequests(2);
    await api(h, 'POST', `/api/v1/turns/${turnId}/steer`, { message: 'Keep it short' });
  }
  const outcome = await waitTurn(h, turnId);
  if (outcome.status !== s.expectStatus) throw new Error(`scenario ${s.name}: expected ${s.expectStatus}, got ${outcome.status}`);
  if (h.model.failures.length) throw new Error(`scenario ${s.name}: model script failures ${h.model.failures.join('; ')}`);
  return { turnId, outcome };
}

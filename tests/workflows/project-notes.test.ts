/**
 * Notes provenance in real turns: update_project confirms a note only from a
 * verbatim quote of this turn's author message, records the rest as proposals, shares one
 * budget, renders the sections apart in the next agent's context, and never reports a
 * save that did not happen.
 */
import type { Models } from '../../src/db/models';
import { updateProject } from '../../src/activities/tools/project-tools';
import { CONFIRMED_HEADING, PROPOSALS_HEADING, parseProjectNotes } from '../../src/activities/tools/project-notes';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, ofType, requestsOf, router, say } from '../helpers/script';

// Turns on services shared with other suites: a loaded machine makes each take seconds.
jest.setTimeout(240_000);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const notesOf = async (projectId: string) =>
  parseProjectNotes((await h.runtime.models.Project.findById(projectId).lean())!.notes);

test('notes provenance: an entry is author-confirmed only as its own verbatim quote of the author message; the rest are recorded as proposals', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    call('planner', 'update_project', {
      notes: '林默是左撇子\n林默小时候溺过水\n故事发生在青岛',
      // A real quote, and one the author never wrote: neither vouches for another entry.
      author_quotes: ['林默是左撇子', '故事发生在青岛'],
    }),
    say('planner', '记下了。'),
  ]);
  const r = await runTurn(h, sessionId, '记住：林默是左撇子。另外，故事发生在 1998 年的海边小城。');
  const result = ofType(r.events, 'tool_result')[0]!.data;
  expect(result).toMatchObject({
    ok: true,
    result: { notes_recorded_as_proposals: ['林默小时候溺过水', '故事发生在青岛'] },
  });
  expect(await notesOf(projectId)).toEqual({
    unmarked: [],
    confirmed: ['林默是左撇子'],
    proposals: ['林默小时候溺过水', '故事发生在青岛'],
  });

  // The next agent sees the sections apart, the proposals marked as not canon.
  h.model.reset();
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    call('planner', 'update_project', { proposals: '林默有个妹妹' }),
    say('planner', '好的。'),
  ]);
  await runTurn(h, sessionId, '再想想人物关系');
  const brief = String(requestsOf(h.model, 'planner')[0]!.messages[1]!.content);
  const confirmedAt = brief.indexOf(CONFIRMED_HEADING);
  const proposalsAt = brief.indexOf(PROPOSALS_HEADING);
  expect(confirmedAt).toBeGreaterThan(-1);
  expect(brief.slice(confirmedAt, proposalsAt)).toContain('林默是左撇子');
  expect(brief.slice(proposalsAt)).toMatch(/NOT canon[\s\S]*林默小时候溺过水/);
  // `proposals` replaced the proposal section; the confirmed entry stayed.
  expect(await notesOf(projectId)).toEqual({ unmarked: [], confirmed: ['林默是左撇子'], proposals: ['林默有个妹妹'] });
});

test('notes and proposals share 4,000 characters: over budget is notes_over_budget and nothing is written', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'standard', workflow_agents: ['planner'], write_content: false }),
    call('planner', 'update_project', {
      summary: 'A new summary',
      notes: 'n'.repeat(2100),
      proposals: 'p'.repeat(2100),
    }),
    say('planner', 'Too long; I will shorten it.'),
  ]);
  const r = await runTurn(h, sessionId, 'Note everything down');
  expect(ofType(r.events, 'tool_result')[0]!.data).toMatchObject({ ok: false, errorType: 'notes_over_budget' });
  const project = (await h.runtime.models.Project.findById(projectId).lean())!;
  expect([project.summary, project.notes]).toEqual(['', '']);
});

test('update_project exhaustion of its compare-and-set is an error result, never ok with nothing saved', async () => {
  const { projectId } = await createProjectAndSession(h);
  const real = h.runtime.models;
  // Every revision claim loses the race, as if another writer claimed the next revision each time.
  let writes = 0;
  const losingClaims = new Proxy(real.RevisionClaim, {
    get(target, prop) {
      if (prop === 'create')
        return async () => {
          writes++;
          throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
        };
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const ctx = {
    models: { ...real, RevisionClaim: losingClaims } as Models,
    turnId: 't',
    projectId,
    ownerId: 'local',
    agent: 'planner' as const,
    authorMessage: 'hello',
    focusFileId: null,
    key: 't:1:c',
    run: 1,
    step: 1,
    event: <T>(d: T) => d,
  };
  const out = await updateProject(ctx, { summary: 'lost', tasks: [{ id: 'a', title: 'Chapter 1', status: 'todo' }] });
  expect(writes).toBe(5);
  expect(out.body).toMatchObject({ ok: false, error_type: 'concurrent_update' });
  expect(out.outcome.ok).toBe(false);
  expect((await real.Project.findById(projectId).lean())!.summary).toBe('');
});

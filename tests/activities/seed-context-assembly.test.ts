/**
 * The context rules as a step really applies them, on the real MongoDB-wire server: every
 * character card packed as CONSTRAINT (a tight budget chooses inside the tier, never below
 * it); the stored context sent trimmed, capped at a line boundary only past its fallback cap;
 * the working set naming a file already `[full]` in one line, in the session's language; and
 * the base protocol opening every agent's prompt.
 */
import { assembleTurnContext, type ContextSettings } from '../../src/activities/context';
import { contextCutNote, fullHeader } from '../../src/activities/context/budget';
import { countTokens } from '../../src/activities/context/tokens';
import { buildAgentMessages } from '../../src/activities/step/agent-messages';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { BASE_PROTOCOL } from '../../src/agents/prompts/base';
import type { Importance } from '../../src/core/domain';
import { WORK_AGENTS, type WorkAgent } from '../../src/core/plans';
import type { LlmStepInput } from '../../src/core/turn/turn-types';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('seedctx');

const settings = (contextTokens: number): ContextSettings => ({
  contextTokens,
  historyTokens: 4000,
  ledgerCeiling: 160_000,
  workingSetMaxFiles: 8,
  workingSetMaxChars: 60_000,
});

/** Distinct sentences naming their subject; no word of them is in the turns' messages. */
const prose = (subject: string, chars: number): string => {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${subject} remembers harbour night ${i} and the ${i % 7} lanterns. `;
  return out.slice(0, chars);
};

type Made = { id: string; title: string; content: string; importance: Importance | null };

async function addFile(projectId: string, title: string, type: string, content: string, importance: Importance | null) {
  const f = await db.models.File.create({ projectId, ownerId: 'u1', type, title, content, words: 1, importance });
  return { id: String(f._id), title, content, importance } as Made;
}

async function newTurn(projectId: string, message: string, sessionId = `s-${projectId}`) {
  const t = await db.models.Turn.create({ sessionId, projectId, ownerId: 'u1', message, workflowId: 'direct' });
  return String(t._id);
}

/** What packing one file whole costs: its title line, the join and its text. */
const itemTokens = (f: Made): number => countTokens(fullHeader(f.title, f.id)) + 3 + countTokens(f.content);

const firstStep = (turnId: string, agent: WorkAgent, language?: 'zh' | 'en'): LlmStepInput => ({
  turnId,
  run: 0,
  step: 1,
  agent,
  runTools: { flags: { readOnly: false, clarifyFirst: false } },
  slot: 1,
  runKind: 'initial',
  packet: null,
  ...(language ? { language } : {}),
  scope: { scope: 'the next scene', writeContent: true, readOnly: false, clarifyFirst: false, remainingPlan: [] },
  pendingFileId: null,
  holdChat: false,
  steering: [],
  prelude: [],
});

describe('CONSTRAINT: every card, packed inside the tier', () => {
  test('low-importance cards come in before a medium setting: they are constraints, not the rest', async () => {
    const projectId = await db.newProject();
    const cards: Made[] = [];
    for (let i = 0; i < 3; i++)
      cards.push(await addFile(projectId, `Captain ${i}`, 'character', prose(`Cap${i}`, 600), 'high'));
    for (let i = 0; i < 8; i++)
      cards.push(await addFile(projectId, `Walker ${i}`, 'character', prose(`Walk${i}`, 300), 'low'));
    const customs = await addFile(projectId, 'Customs', 'setting', prose('Customs', 2400), 'medium');
    const turnId = await newTurn(projectId, 'Write the next scene.');

    const roomy = await assembleTurnContext(db.models, createWorkerCaches(), settings(32_000), turnId, '');
    expect(roomy.stats.full).toEqual(expect.arrayContaining([...cards.map((c) => c.id), customs.id]));
    // Room for every card but not the setting: the cards win, all of them whole.
    const budget = roomy.contextTokens - countTokens(customs.content) + 20;
    const tight = await assembleTurnContext(db.models, createWorkerCaches(), settings(budget), turnId, '');
    expect([...tight.stats.full].sort()).toEqual(cards.map((c) => c.id).sort());
    for (const c of cards)
      expect(`${tight.context}\n${tight.contextMoving}`).toContain(`${fullHeader(c.title, c.id)}\n${c.content}`);
  });

  test('a budget short of the tier keeps the high cards, then the shortest medium ones; nothing below the tier gets in', async () => {
    const projectId = await db.newProject();
    const high: Made[] = [];
    for (let i = 0; i < 3; i++)
      high.push(await addFile(projectId, `Captain ${i}`, 'character', prose(`Cap${i}`, 500 + i * 300), 'high'));
    // Created longest first: the project's order would take the long ones.
    const medium: Made[] = [];
    for (const [i, chars] of [2400, 2000, 1600, 700, 600, 500].entries())
      medium.push(await addFile(projectId, `Mate ${i}`, 'character', prose(`Mate${i}`, chars), null));
    const low: Made[] = [];
    for (let i = 0; i < 5; i++)
      low.push(await addFile(projectId, `Walker ${i}`, 'character', prose(`Walk${i}`, 300), 'low'));
    const customs = await addFile(projectId, 'Customs', 'setting', prose('Customs', 400), 'medium');
    const turnId = await newTurn(projectId, 'Write the next scene.');

    const everything = [...high, ...medium, ...low, customs];
    const roomy = await assembleTurnContext(db.models, createWorkerCaches(), settings(32_000), turnId, '');
    const headerTokens = roomy.contextTokens - everything.reduce((n, f) => n + itemTokens(f), 0);
    const shortest = medium.slice(-3);
    // The high cards and the three shortest medium ones, with less than an item's worth to spare.
    const budget = headerTokens + [...high, ...shortest].reduce((n, f) => n + itemTokens(f), 0) + 40;
    const tight = await assembleTurnContext(db.models, createWorkerCaches(), settings(budget), turnId, '');
    expect([...tight.stats.full].sort()).toEqual([...high, ...shortest].map((f) => f.id).sort());
    expect(tight.stats.truncated).toEqual([]);
    // The rest of the tier is left out, listed to be read with query_files; nothing after the tier got in.
    const shown = `${tight.context}\n${tight.contextMoving}`;
    for (const f of [...medium.slice(0, 3), ...low, customs]) {
      expect(shown).toContain(`- ${f.title} (id=${f.id}, `);
      expect(shown).not.toContain(`(id=${f.id}) [`);
    }
    expect(tight.stats.snippets).toEqual([]);
  });
});

describe('the raw context as a step sends it', () => {
  const standing = [
    '## Related content',
    '### Mara (id=a) [full]',
    'Mara keeps the light.',
    '',
    '',
    '\tShe counts ships.',
  ];
  const lines = Array.from(
    { length: 60 },
    (_, i) => `- Ferry ${i} (id=${String(i).padStart(24, '0')}, draft, 900 words)`,
  );
  const moving = ['## Project files', ...lines, ''].join('\n');

  async function storedContext() {
    const projectId = await db.newProject();
    const turnId = await newTurn(projectId, 'Tighten the ferry scene.');
    const context = `\n\n  ${standing.join('\n')}\n\n`;
    await db.models.TurnContext.create({
      _id: turnId,
      sessionId: `s-${projectId}`,
      projectId,
      ownerId: 'u1',
      message: 'Tighten the ferry scene.',
      context,
      contextMoving: `\n${moving}\n\n`,
      contextTokens: countTokens(context) + countTokens(moving),
      userContent: 'Tighten the ferry scene.',
      userTokens: 6,
    });
    return turnId;
  }

  test('only trimmed: the line breaks, blank lines and tabs inside reach the model as stored', async () => {
    const turnId = await storedContext();
    const { messages } = await buildAgentMessages(
      db.models,
      createWorkerCaches(),
      firstStep(turnId, 'writer'),
      settings(32_000),
    );
    expect(String(messages[1]!.content).endsWith(`\n\n${standing.join('\n')}`)).toBe(true);
    expect(String(messages[2]!.content).startsWith(`${moving.trim()}\n\n`)).toBe(true);
  });

  test('past the fallback cap it is cut at a line boundary and says so', async () => {
    const turnId = await storedContext();
    // 8 characters a token: a 200-token budget caps each part at 1,600 characters.
    const { messages } = await buildAgentMessages(
      db.models,
      createWorkerCaches(),
      firstStep(turnId, 'writer'),
      settings(200),
    );
    const sent = String(messages[2]!.content);
    const trimmed = moving.trim();
    const kept = trimmed.slice(0, trimmed.lastIndexOf('\n', 1600));
    expect(sent.startsWith(`${kept}\n${contextCutNote(kept.length, trimmed.length)}\n`)).toBe(true);
    expect(kept.split('\n').every((l) => l === '## Project files' || lines.includes(l))).toBe(true);
    // The standing part was under the cap: untouched.
    expect(String(messages[1]!.content).endsWith(standing.join('\n'))).toBe(true);
  });

  test('every agent’s prompt opens with the whole base protocol', async () => {
    const turnId = await storedContext();
    for (const agent of WORK_AGENTS) {
      const { messages } = await buildAgentMessages(
        db.models,
        createWorkerCaches(),
        firstStep(turnId, agent),
        settings(32_000),
      );
      expect(messages[0]!.role).toBe('system');
      expect(String(messages[0]!.content).startsWith(BASE_PROTOCOL)).toBe(true);
    }
  });
});

describe("the working set names a file the context shows whole in one line, in the session's language", () => {
  async function turnAfterARead(message: string) {
    const projectId = await db.newProject();
    const keeper = await addFile(projectId, '灯塔守夜人', 'character', prose('Keeper', 900), 'high');
    const sessionId = `s-${projectId}`;
    await db.models.Message.create({
      sessionId,
      projectId,
      turnId: 'earlier',
      role: 'assistant',
      content: 'Read it.',
      breadcrumb: [{ op: 'read', fileId: keeper.id, title: keeper.title }],
      seq: 1,
      key: `${projectId}:m1`,
    });
    return { keeper, turnId: await newTurn(projectId, message, sessionId) };
  }

  test.each([
    ['zh' as const, '（全文见项目上下文）'],
    ['en' as const, ' (full text in the project context)'],
  ])('%s session', async (language, tail) => {
    // The message itself is English: the session's language decides the line.
    const { keeper, turnId } = await turnAfterARead('ok, go on');
    const { messages } = await buildAgentMessages(
      db.models,
      createWorkerCaches(),
      firstStep(turnId, 'writer', language),
      settings(32_000),
    );
    const user = String(messages.find((m) => m.role === 'user')!.content);
    expect(user).toContain(`\n- 灯塔守夜人 (id=${keeper.id})${tail}\n`);
    expect(user).not.toContain(keeper.content);
    expect(String(messages[1]!.content)).toContain(`${fullHeader(keeper.title, keeper.id)}\n${keeper.content}`);
  });
});

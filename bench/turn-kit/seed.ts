/**
 * "Accumulated data" for `bench:turn`: a project with 50 chapters and 200 turns of history
 * in one session, written straight into MongoDB with everything a real history leaves
 * behind (file versions, messages with breadcrumbs, agent steps, tool executions, usage
 * records, read snapshots), so every hot-path query runs against grown collections.
 */
import { newId, type Models } from '../../src/db/models';
import { turnWorkflowId } from '../../src/core/domain';

const SENTENCE =
  'The fog lay over the harbour while the inspector read the letter again, looking for the hand that wrote it. ';

async function insertAll(
  model: { insertMany(docs: object[], o: object): Promise<unknown> },
  docs: object[],
): Promise<void> {
  for (let i = 0; i < docs.length; i += 500)
    await model.insertMany(docs.slice(i, i + 500), { ordered: false, lean: true });
}

export interface Seeded {
  projectId: string;
  sessionId: string;
}

/**
 * Takes back the files a measured turn created in the accumulated project, so every round
 * meets the same project (and the recorded turn's titles are free again).
 */
export async function removeTurnFiles(models: Models, turnId: string): Promise<void> {
  const created = await models.File.find({ createdByTurnId: turnId }).select({ _id: 1 }).lean();
  const ids = created.map((f) => String(f._id));
  if (!ids.length) return;
  await models.FileVersion.deleteMany({ fileId: { $in: ids } });
  await models.File.deleteMany({ _id: { $in: ids } });
}

/** Seeds the project and returns it with its history session. Extra sessions may be added later. */
export async function seedAccumulated(models: Models, ownerId: string, chapters = 50, turns = 200): Promise<Seeded> {
  const project = await models.Project.create({
    ownerId,
    title: 'Bench (accumulated)',
    type: 'novel',
    summary: 'A harbour-town mystery.',
    style: 'Spare, close third person.',
  });
  const projectId = String(project._id);
  const chapterText = SENTENCE.repeat(55); // ~1,000 words
  // Titled apart from the files the measured turn creates ("Outline", "Chapter 1"): a second
  // file with a title already in its folder is refused (file_exists), and the measured turn
  // is the same recorded turn whatever the data.
  const files = [
    {
      _id: newId(),
      projectId,
      ownerId,
      type: 'outline',
      title: 'Series outline',
      order: 0,
      content: SENTENCE.repeat(30),
      words: 540,
      versionCount: 2,
    },
    ...Array.from({ length: chapters }, (_, i) => ({
      _id: newId(),
      projectId,
      ownerId,
      type: 'draft',
      title: `Chapter ${i + 1} (first draft)`,
      order: i + 1,
      content: chapterText,
      words: 990,
      versionCount: 2,
    })),
  ];
  await insertAll(models.File, files);
  await insertAll(
    models.FileVersion,
    files.flatMap((f) =>
      [1, 2].map((version) => ({
        fileId: f._id,
        projectId,
        version,
        content: f.content,
        words: f.words,
        author: 'ai',
        agent: 'writer',
        operation: version === 1 ? 'create' : 'stream',
      })),
    ),
  );
  const session = await models.Session.create({ projectId, ownerId, title: 'history', messageSeq: turns * 2 });
  const sessionId = String(session._id);
  const t0 = Date.now() - turns * 60_000;
  const turnDocs: object[] = [];
  const messages: object[] = [];
  const steps: object[] = [];
  const executions: object[] = [];
  const usage: object[] = [];
  const snapshots: object[] = [];
  for (let i = 0; i < turns; i++) {
    const turnId = newId();
    const file = files[1 + (i % chapters)]!;
    const createdAt = new Date(t0 + i * 60_000);
    const message = `Revise chapter ${1 + (i % chapters)}: tighten the dialogue.`;
    turnDocs.push({
      _id: turnId,
      sessionId,
      projectId,
      ownerId,
      message,
      status: 'completed',
      workflowId: turnWorkflowId(turnId),
      createdAt,
      endedAt: new Date(createdAt.getTime() + 30_000),
      filesTouched: [file._id],
    });
    messages.push({
      sessionId,
      projectId,
      turnId,
      role: 'user',
      content: message,
      seq: 2 * i + 1,
      key: `${turnId}:user`,
    });
    messages.push({
      sessionId,
      projectId,
      turnId,
      role: 'assistant',
      agent: 'writer',
      content: `${file.title} is revised: the dialogue is tighter and the clue about the letter lands earlier. `.repeat(
        3,
      ),
      breadcrumb: [{ op: 'edited', fileId: file._id, title: file.title }],
      seq: 2 * i + 2,
      key: `${turnId}:run:1`,
    });
    for (let s = 1; s <= 8; s++) {
      const callId = `call_${s}`;
      steps.push({
        _id: `${turnId}:${s}`,
        turnId,
        run: Math.ceil(s / 3),
        step: s,
        agent: s < 4 ? 'planner' : s < 8 ? 'writer' : 'quality_reviewer',
        text: 'A short summary of the step.',
        rawContent: s % 3 === 2 ? chapterText : 'ok',
        toolCalls: s % 3 === 1 ? [{ id: callId, name: 'create_file', arguments: '{}' }] : [],
        toolResults: [],
      });
      usage.push({
        _id: `${turnId}:${s}`,
        turnId,
        sessionId,
        projectId,
        ownerId,
        agent: 'writer',
        step: s,
        model: 'offline',
        promptTokens: 3000,
        completionTokens: 400,
        totalTokens: 3400,
        source: 'provider',
      });
      if (s % 3 === 1)
        executions.push({
          key: `${turnId}:${s}:${callId}`,
          turnId,
          name: 'create_file',
          result: { body: { ok: true }, outcome: { name: 'create_file', ok: true }, events: [] },
        });
    }
    snapshots.push({ _id: `${turnId}:${file._id}`, turnId, fileId: file._id, version: 2 });
  }
  await insertAll(models.Turn, turnDocs);
  await insertAll(models.Message, messages);
  await insertAll(models.AgentStep, steps);
  await insertAll(models.ToolExecution, executions);
  await insertAll(models.UsageRecord, usage);
  await insertAll(models.ReadSnapshot, snapshots);
  return { projectId, sessionId };
}

/**
 * Lookups by `_id` are index searches on the local MongoDB-wire server, as on MongoDB.
 *
 * The turn's hot path reads and writes its records by derived `_id` (steps, usage,
 * executions, context). FerretDB v1's SQLite backend, unpatched, matched `_id` with an
 * expression its `_id` index does not cover, so each of those scanned the whole collection
 * and slowed down as history grew. scripts/services.sh builds FerretDB with that fixed; this
 * suite fails on a server built without the fix.
 *
 * The same goes for `_id: {$in: [...]}` (the files a prompt showed whole, read on every step)
 * and an `_id` equality beside other conditions, which upstream FerretDB v1 also answered by
 * scanning (scripts/ferretdb/pushdown.go). The whole filter still decides what matches.
 *
 * So do top-level equalities to a string (a session's messages, a turn's steps and versions)
 * and comparisons with a number (a session's latest messages by seq): upstream read and
 * decoded every document of the collection for them.
 */
import { Double, Long } from 'mongodb';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('idlookup');

/** The server's plan for a command, reduced to the words that say how it finds documents. */
async function planOf(command: Record<string, unknown>): Promise<string> {
  const conn = db.models.AgentStep.db;
  const explained = (await conn.db!.command({ explain: command })) as Record<string, unknown>;
  return JSON.stringify(explained.queryPlanner ?? explained);
}

beforeAll(async () => {
  // Enough documents that a scan and an index search are different plans on any server.
  const docs = Array.from({ length: 200 }, (_, i) => ({
    _id: `turn-${i}:${(i % 8) + 1}`,
    turnId: `turn-${i}`,
    run: 1,
    step: (i % 8) + 1,
    agent: 'writer',
    text: 'x'.repeat(200),
  }));
  await db.models.AgentStep.insertMany(docs);
});

const isFerret = async (): Promise<boolean> => {
  const info = (await db.models.AgentStep.db.db!.command({ buildInfo: 1 })) as Record<string, unknown>;
  return 'ferretdbVersion' in info;
};

/** The plan searches the `_id` index (on FerretDB: SQLite's plan) instead of scanning the steps. */
async function expectIdIndexSearch(plan: string): Promise<void> {
  if (await isFerret()) {
    expect(plan).toMatch(/SEARCH agentsteps_\w+ USING INDEX agentsteps_\w+__id_/);
    expect(plan).not.toMatch(/SCAN agentsteps/);
  } else {
    expect(plan).toMatch(/IDHACK|EXPRESS_IXSCAN|IXSCAN/);
  }
}

test('a find by _id searches the _id index instead of scanning the collection', async () => {
  await expectIdIndexSearch(await planOf({ find: 'agentsteps', filter: { _id: 'turn-150:7' }, limit: 1 }));
});

test('updates and deletes by _id (the same expression, now indexed) change exactly their document', async () => {
  await db.models.AgentStep.updateOne({ _id: 'turn-42:3' }, { $set: { text: 'changed' } });
  await db.models.AgentStep.deleteOne({ _id: 'turn-43:4' });
  const [changed, untouched, gone] = await Promise.all([
    db.models.AgentStep.findById('turn-42:3').lean(),
    db.models.AgentStep.findById('turn-44:5').lean(),
    db.models.AgentStep.findById('turn-43:4').lean(),
  ]);
  expect(changed?.text).toBe('changed');
  expect(untouched?.text).toBe('x'.repeat(200));
  expect(gone).toBeNull();
  expect(await db.models.AgentStep.countDocuments({})).toBe(199);
});

test('a find by _id $in, or by _id beside other conditions, searches the _id index', async () => {
  await expectIdIndexSearch(
    await planOf({ find: 'agentsteps', filter: { _id: { $in: ['turn-10:3', 'turn-11:4', 'turn-12:5'] } } }),
  );
  await expectIdIndexSearch(await planOf({ find: 'agentsteps', filter: { _id: 'turn-10:3', agent: 'writer' } }));
});

test('_id $in and _id beside other conditions still match exactly what the whole filter says', async () => {
  const ids = (docs: { _id: unknown }[]) => docs.map((d) => String(d._id)).sort();
  const found = await db.models.AgentStep.find({ _id: { $in: ['turn-10:3', 'turn-11:4', 'no-such-step'] } }).lean();
  expect(ids(found)).toEqual(['turn-10:3', 'turn-11:4']);
  // The other conditions are applied too: a wrong one excludes the document found by _id.
  expect(await db.models.AgentStep.findOne({ _id: 'turn-10:3', agent: 'planner' }).lean()).toBeNull();
  expect(await db.models.AgentStep.countDocuments({ _id: { $in: ['turn-10:3', 'turn-11:4'] }, step: 3 })).toBe(1);
  // Members the index cannot answer (a regular expression) fall back to reading everything.
  const mixed = await db.models.AgentStep.find({ _id: { $in: ['turn-12:5', /^turn-13:/] } }).lean();
  expect(ids(mixed)).toEqual(['turn-12:5', 'turn-13:6']);
  // Updates and deletes go through the same lookup.
  await db.models.AgentStep.updateMany(
    { _id: { $in: ['turn-20:5', 'turn-21:6'] }, step: 5 },
    { $set: { text: 'only step 5' } },
  );
  expect((await db.models.AgentStep.findById('turn-20:5').lean())?.text).toBe('only step 5');
  expect((await db.models.AgentStep.findById('turn-21:6').lean())?.text).toBe('x'.repeat(200));
  await db.models.AgentStep.deleteMany({ _id: { $in: ['turn-30:7', 'turn-31:8'] } });
  expect(await db.models.AgentStep.countDocuments({ _id: { $in: ['turn-30:7', 'turn-31:8', 'turn-32:1'] } })).toBe(1);
});

test("a find by a string field searches that field's index instead of scanning the collection", async () => {
  const plan = await planOf({ find: 'agentsteps', filter: { turnId: 'turn-150' } });
  if (await isFerret()) {
    expect(plan).toMatch(/SEARCH agentsteps_\w+ USING INDEX agentsteps_\w+_turnId_1/);
    expect(plan).not.toMatch(/SCAN agentsteps/);
  } else expect(plan).toMatch(/IXSCAN/);
  const steps = await db.models.AgentStep.find({ turnId: 'turn-150', agent: 'writer' }).lean();
  expect(steps.map((st) => String(st._id))).toEqual(['turn-150:7']);
  expect(await db.models.AgentStep.countDocuments({ turnId: 'turn-150', agent: 'planner' })).toBe(0);
});

test('string equalities still match what MongoDB matches: arrays holding the value, exact strings only', async () => {
  const raw = db.models.AgentStep.db.db!.collection('equalities');
  const tricky = 'quote " backslash \\ <tag> & é 中文';
  await raw.insertMany([
    { _id: 'plain', sessionId: 's1' } as never,
    { _id: 'array', sessionId: ['s0', 's1'] } as never,
    { _id: 'prefix', sessionId: 's10' } as never,
    { _id: 'number', sessionId: 1 } as never,
    { _id: 'missing' } as never,
    { _id: 'tricky', sessionId: tricky } as never,
    { _id: 'tricky-array', sessionId: [tricky] } as never,
  ]);
  const ids = async (filter: Record<string, unknown>) =>
    (await raw.find(filter).toArray()).map((d) => String(d._id)).sort();
  // As on MongoDB: the string itself and any array holding it, nothing that only starts like it.
  expect(await ids({ sessionId: 's1' })).toEqual(['array', 'plain']);
  expect(await ids({ sessionId: tricky })).toEqual(['tricky', 'tricky-array']);
  expect(await ids({ sessionId: 's1', _id: { $in: ['array', 'prefix'] } })).toEqual(['array']);
  expect(await raw.countDocuments({ sessionId: 's2' })).toBe(0);
  // Updates and deletes go through the same narrowing.
  await raw.updateMany({ sessionId: 's1' }, { $set: { seen: true } });
  expect(await ids({ seen: true })).toEqual(['array', 'plain']);
  await raw.deleteMany({ sessionId: tricky });
  expect(await raw.countDocuments({})).toBe(5);
});

test('comparisons with a number are narrowed in SQLite and still match what MongoDB matches', async () => {
  const raw = db.models.AgentStep.db.db!.collection('ranges');
  await raw.insertMany([
    { _id: 'int', seq: 700 },
    { _id: 'long', seq: Long.fromNumber(700) },
    { _id: 'double', seq: new Double(700.5) },
    { _id: 'low', seq: 5 },
    { _id: 'text', seq: '900' },
    { _id: 'array', seq: [1, 700] },
    { _id: 'low-array', seq: [1, 2] },
    { _id: 'date', seq: new Date(800) },
    { _id: 'null', seq: null },
    { _id: 'missing' },
    { _id: 'big', seq: Long.fromString('9007199254740993') },
  ] as never[]);
  const ids = async (filter: Record<string, unknown>) =>
    (await raw.find(filter).toArray()).map((d) => String(d._id)).sort();
  if (await isFerret()) {
    // The server narrows the rows in SQLite instead of decoding every document.
    const explained = (await raw.db.command({ explain: { find: 'ranges', filter: { seq: { $gt: 600 } } } })) as {
      filterPushdown?: boolean;
    };
    expect(explained.filterPushdown).toBe(true);
  }
  // Numbers of every kind compare by value; arrays match by any element; text, dates and null never match a number.
  expect(await ids({ seq: { $gt: 600 } })).toEqual(['array', 'big', 'double', 'int', 'long']);
  expect(await ids({ seq: { $lt: 10 } })).toEqual(['array', 'low', 'low-array']);
  expect(await ids({ seq: { $gte: 700, $lte: 700 } })).toEqual(['array', 'int', 'long']);
  expect(await ids({ seq: { $gt: 9007199254740992 } })).toEqual(['big']);
  // Beside an equality, both apply.
  expect(await ids({ seq: { $gt: 600 }, _id: { $in: ['int', 'low'] } })).toEqual(['int']);
});

test('comparisons with a date are narrowed in SQLite and still match only dates, as on MongoDB', async () => {
  const raw = db.models.AgentStep.db.db!.collection('dates');
  await raw.insertMany([
    { _id: 'deleted', deletedAt: new Date('2026-01-02T00:00:00Z') },
    { _id: 'epoch', deletedAt: new Date(0) },
    { _id: 'before-epoch', deletedAt: new Date(-1000) },
    { _id: 'kept', deletedAt: null },
    { _id: 'missing' },
    { _id: 'number', deletedAt: 1_800_000_000_000 },
    { _id: 'text', deletedAt: '2026-01-02' },
    { _id: 'array', deletedAt: [null, new Date('2026-01-02T00:00:00Z')] },
  ] as never[]);
  const ids = async (filter: Record<string, unknown>) =>
    (await raw.find(filter).toArray()).map((d) => String(d._id)).sort();
  if (await isFerret()) {
    const explained = (await raw.db.command({
      explain: { find: 'dates', filter: { deletedAt: { $gte: new Date(0) } } },
    })) as { filterPushdown?: boolean };
    expect(explained.filterPushdown).toBe(true);
  }
  // Dates compare by time; arrays match by any element; null, missing, numbers and text never match a date.
  expect(await ids({ deletedAt: { $gte: new Date(0) } })).toEqual(['array', 'deleted', 'epoch']);
  expect(await ids({ deletedAt: { $lt: new Date(0) } })).toEqual(['before-epoch']);
  expect(await ids({ deletedAt: { $gt: new Date(0), $lte: new Date('2026-01-02T00:00:00Z') } })).toEqual([
    'array',
    'deleted',
  ]);
});

test('an $or of narrowed filters is narrowed in SQLite and matches what each clause says', async () => {
  const raw = db.models.AgentStep.db.db!.collection('ors');
  // Heads of files shown at some version: which moved on, or went to the trash?
  await raw.insertMany([
    { _id: 'same-1', versionCount: 1, deletedAt: null },
    { _id: 'moved-1', versionCount: 2, deletedAt: null },
    { _id: 'same-3', versionCount: 3, deletedAt: null },
    { _id: 'moved-3', versionCount: 5, deletedAt: null },
    { _id: 'trashed', versionCount: 1, deletedAt: new Date('2026-01-02T00:00:00Z') },
    { _id: 'other', versionCount: 9, deletedAt: new Date('2026-01-02T00:00:00Z') },
  ] as never[]);
  const moved = {
    $or: [
      { _id: { $in: ['same-1', 'moved-1', 'trashed'] }, versionCount: { $gt: 1 } },
      { _id: { $in: ['same-3', 'moved-3'] }, versionCount: { $gt: 3 } },
      { _id: { $in: ['same-1', 'moved-1', 'trashed', 'same-3', 'moved-3'] }, deletedAt: { $gte: new Date(0) } },
    ],
  };
  const ids = async (filter: Record<string, unknown>) =>
    (await raw.find(filter).toArray()).map((d) => String(d._id)).sort();
  if (await isFerret()) {
    const explained = (await raw.db.command({ explain: { find: 'ors', filter: moved } })) as {
      filterPushdown?: boolean;
    };
    expect(explained.filterPushdown).toBe(true);
    // A clause with nothing to narrow could match any document: then nothing is pushed down, and the answer is still exact.
    const open = (await raw.db.command({
      explain: { find: 'ors', filter: { $or: [{ _id: 'same-1' }, { deletedAt: { $exists: true } }] } },
    })) as {
      filterPushdown?: boolean;
    };
    expect(open.filterPushdown).toBe(false);
  }
  expect(await ids(moved)).toEqual(['moved-1', 'moved-3', 'trashed']);
  // Past SQLite's parameter budget for an $or, nothing is pushed down (no error), and the answer is still exact.
  const many = (tag: string) => [...Array.from({ length: 900 }, (_, i) => `${tag}-${i}`), 'moved-1', 'same-3'];
  const huge = {
    $or: [
      { _id: { $in: many('a') }, versionCount: { $gt: 1 } },
      { _id: { $in: many('b') }, versionCount: { $gt: 1 } },
      { _id: { $in: many('c') }, versionCount: { $gt: 4 } },
    ],
  };
  if (await isFerret()) {
    const explained = (await raw.db.command({ explain: { find: 'ors', filter: huge } })) as {
      filterPushdown?: boolean;
    };
    expect(explained.filterPushdown).toBe(false);
  }
  expect(await ids(huge)).toEqual(['moved-1', 'same-3']);
  expect(await ids({ $or: [{ _id: 'same-1' }, { deletedAt: { $exists: true }, versionCount: 9 }] })).toEqual([
    'other',
    'same-1',
  ]);
  expect(await ids({ $or: [{ _id: 'same-1' }, { versionCount: { $gte: 3 } }], deletedAt: null })).toEqual([
    'moved-3',
    'same-1',
    'same-3',
  ]);
});

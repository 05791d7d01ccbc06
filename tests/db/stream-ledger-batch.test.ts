/**
 * The worker's batch of stream counts (src/activities/stream/stream-ledger-batch.ts), on the real
 * MongoDB-wire server: counts wait for the batch, go on record for every stream in one
 * write, only ever go up, and a failed write keeps them for the next batch.
 */
import pino from 'pino';
import { StreamLedgerBatch } from '../../src/activities/stream/stream-ledger-batch';
import { slotCounts } from '../../src/db/stream-ledger';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('ledger_batch');
const logger = pino({ level: 'silent' });

test('counts wait for the batch, then go on record for every stream in one bulk write', async () => {
  const batch = new StreamLedgerBatch(60_000);
  const writer = { models: db.models, logger };
  batch.note(writer, 's:a', 0, 3);
  batch.note(writer, 's:a', 1, 5);
  batch.note(writer, 's:b', 2, 7);
  batch.note(writer, 's:a', 0, 2); // lower than noted: ignored
  expect(await db.models.StreamLedger.countDocuments({})).toBe(0);

  const writes = jest.spyOn(db.models.StreamLedger, 'bulkWrite');
  await batch.flush();
  expect(writes).toHaveBeenCalledTimes(1);
  writes.mockRestore();
  expect(Object.fromEntries(await slotCounts(db.models, 's:a'))).toEqual({ 0: 3, 1: 5 });
  expect(Object.fromEntries(await slotCounts(db.models, 's:b'))).toEqual({ 2: 7 });

  // A later, lower count from a slow publisher never lowers what is on record.
  batch.note(writer, 's:a', 1, 4);
  batch.note(writer, 's:a', 0, 9);
  await batch.flush();
  expect(Object.fromEntries(await slotCounts(db.models, 's:a'))).toEqual({ 0: 9, 1: 5 });
  // Nothing pending: no write.
  const none = jest.spyOn(db.models.StreamLedger, 'bulkWrite');
  await batch.flush();
  expect(none).not.toHaveBeenCalled();
  none.mockRestore();
});

test('a failed write keeps its counts for the next batch', async () => {
  const batch = new StreamLedgerBatch(60_000);
  const writer = { models: db.models, logger };
  batch.note(writer, 's:c', 0, 4);
  const failing = jest.spyOn(db.models.StreamLedger, 'bulkWrite').mockRejectedValueOnce(new Error('MongoDB is away'));
  await batch.flush();
  failing.mockRestore();
  expect(await slotCounts(db.models, 's:c')).toEqual(new Map());
  await batch.flush();
  expect(Object.fromEntries(await slotCounts(db.models, 's:c'))).toEqual({ 0: 4 });
});

test('the interval writes a batch nobody settles', async () => {
  const batch = new StreamLedgerBatch(50);
  batch.note({ models: db.models, logger }, 's:d', 3, 2);
  await new Promise((r) => setTimeout(r, 400));
  expect(Object.fromEntries(await slotCounts(db.models, 's:d'))).toEqual({ 3: 2 });
});

/**
 * A scratch database on the real MongoDB-wire server for suites that test the data layer
 * directly (no Temporal, no API): created before the suite, dropped after it.
 */
import type mongoose from 'mongoose';
import { connectMongo } from '../../src/db/connection';
import { createModels, type Models, syncIndexes } from '../../src/db/models';
import type { ToolContext } from '../../src/activities/tools/types';
import { uniqueName } from './harness';

export interface ScratchDb {
  /** The models, bound once the suite's beforeAll has run. */
  readonly models: Models;
  /** A new project owned by `u1`; returns its id. */
  newProject(): Promise<string>;
  /** A planner's tool context in that project for one call (`key` keeps calls apart). */
  plannerContext(projectId: string, authorMessage: string, key: string): ToolContext;
}

export function useScratchDb(prefix: string): ScratchDb {
  let conn: mongoose.Connection;
  let models: Models;
  beforeAll(async () => {
    conn = await connectMongo(
      process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/scriptorium_test',
      uniqueName(prefix),
    );
    models = createModels(conn);
    await syncIndexes(models);
  });
  afterAll(async () => {
    await conn.dropDatabase();
    await conn.close();
  });
  return {
    get models() {
      return models;
    },
    newProject: async () => String((await models.Project.create({ ownerId: 'u1', title: 'P', type: 'novel' }))._id),
    plannerContext: (projectId, authorMessage, key) => ({
      models,
      turnId: key.split(':')[0]!,
      projectId,
      ownerId: 'u1',
      agent: 'planner',
      authorMessage,
      focusFileId: null,
      key,
      run: 0,
      step: 1,
      event: (d) => d,
    }),
  };
}

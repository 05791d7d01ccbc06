/** The turn the recovery test and `bench/recovery.ts` run while a worker goes away. */
import type { ScriptEntry } from '../../src/offline-model';
import { call, prose, router } from './script';

/**
 * The writer streams a 600-word chapter for about 3 s, so the step is mid-stream when its
 * worker goes; the retried attempt gets the same answer. `bench/recovery.ts` asks for a
 * chapter of a realistic length at a realistic pace.
 */
export function recoveryScript(opts: { words?: number; tokensPerSecond?: number } = {}): ScriptEntry[] {
  const chapter: ScriptEntry = {
    match: { agent: 'writer' },
    reply: { content: `<file>\n${prose(opts.words ?? 600)}\n</file>\nSaved.` },
    tokensPerSecond: opts.tokensPerSecond ?? 200,
  };
  // Short arguments: the fault point (40 characters into a step) must land in the chapter, not here.
  return [
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Ch 1' }),
    chapter,
    chapter,
  ];
}

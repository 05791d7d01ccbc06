/**
 * The floor: the turn's recorded model calls replayed back to back with the `openai`
 * client — no orchestration at all. What a contender adds is measured against this.
 */
import OpenAI from 'openai';
import type { RecordedCall } from './model';
import type { TurnTiming } from './scriptorium';

export async function floorTurn(modelUrl: string, calls: RecordedCall[]): Promise<TurnTiming> {
  const client = new OpenAI({ baseURL: modelUrl, apiKey: 'offline', maxRetries: 0 });
  const start = performance.now();
  let firstToken = 0;
  for (const c of calls) {
    const stream = await client.chat.completions.create({
      ...(c.body as OpenAI.Chat.ChatCompletionCreateParamsStreaming),
      stream: true,
    });
    for await (const chunk of stream) {
      // The router's JSON is not shown to the author: the first token is the first shown one.
      if (!firstToken && c.agent !== 'router' && chunk.choices[0]?.delta.content) firstToken = performance.now();
    }
  }
  return { start, firstToken, end: performance.now(), status: 'completed' };
}

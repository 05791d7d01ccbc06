/** Building blocks for scripting the offline model in workflow tests. */
import type { ScriptEntry } from '../../src/offline-model';
import type { AgentName, StreamEvent } from '../../src/core/events';

type Agent = Exclude<AgentName, 'router'>;

export function words(n: number, word = 'storm'): string {
  return Array.from({ length: n }, (_, i) => (i % 12 === 11 ? `${word}.\n` : word)).join(' ');
}

/**
 * `n` words of prose that never repeats itself (every sentence is numbered), as a chapter
 * does not: a model's restart at a seam is then found where it is (src/core/model/continuation.ts).
 */
export function prose(n: number): string {
  const out: string[] = [];
  for (let i = 1; out.length < n; i++)
    out.push(...`Wave ${i} broke over the seawall and Mara counted the lamps going out.`.split(' '));
  return out.slice(0, n).join(' ').replace(/(\.) /g, '$1\n');
}

export function router(answer: {
  current_agent: Agent;
  workflow_plan: 'quick' | 'standard' | 'full' | 'hook_focus' | 'review_only';
  workflow_agents?: Agent[];
  write_content?: boolean;
  read_only?: boolean;
  scope?: string;
}): ScriptEntry {
  return {
    match: { agent: 'router' },
    reply: {
      content: JSON.stringify({
        workflow_agents: [],
        write_content: true,
        read_only: false,
        scope: 'test scope',
        ...answer,
      }),
    },
  };
}

export const say = (agent: Agent, content: string): ScriptEntry => ({ match: { agent }, reply: { content } });

export const call = (
  agent: Agent,
  name: string,
  args: Record<string, unknown> | string,
  content?: string,
): ScriptEntry => ({
  match: { agent },
  reply: { content, toolCalls: [{ name, arguments: args }] },
});

/** create_file without content, then the body as a `<file>` block ending the reply. */
export function streamFile(agent: Agent, title: string, body: string, type = 'draft', after = ''): ScriptEntry[] {
  return [call(agent, 'create_file', { type, title }), say(agent, `<file>\n${body}\n</file>${after}`)];
}

export const types = (events: StreamEvent[]): string[] => events.map((e) => e.type);

export const agentsSelected = (events: StreamEvent[]): string[] =>
  events
    .filter((e): e is Extract<StreamEvent, { type: 'agent_selected' }> => e.type === 'agent_selected')
    .map((e) => e.data.agent);

export function ofType<T extends StreamEvent['type']>(
  events: StreamEvent[],
  type: T,
): Extract<StreamEvent, { type: T }>[] {
  return events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
}

export const chatText = (events: StreamEvent[]): string =>
  ofType(events, 'content')
    .map((e) => e.data.delta)
    .join('');

/** The system prompt and the last message the model saw for each request of an agent. */
export function requestsOf(
  model: {
    requests: {
      agent: AgentName | null;
      body: {
        messages: { role: string; content?: unknown }[];
        tools?: { function: { name: string; description?: string } }[];
      };
    }[];
  },
  agent: AgentName,
) {
  return model.requests
    .filter((r) => r.agent === agent)
    .map((r) => ({
      // Every system message: the standing prompt, then the project with this turn's directives.
      system: r.body.messages
        .filter((m) => m.role === 'system')
        .map((m) => String(m.content ?? ''))
        .join('\n\n'),
      all: r.body.messages
        .map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')}`)
        .join('\n'),
      tools: (r.body.tools ?? []).map((t) => t.function.name),
      toolDescriptions: Object.fromEntries(
        (r.body.tools ?? []).map((t) => [t.function.name, t.function.description ?? '']),
      ),
      messages: r.body.messages,
    }));
}

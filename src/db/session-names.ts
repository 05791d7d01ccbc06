/** Naming conversations by the author's first message (core/session-names.ts), kept on the session. */
import { conversationName } from '../core/session-names';
import type { Models, SessionDoc } from './models';

/** Names the session after `message` unless it has a title: a session the author titled keeps it. */
export async function nameSession(models: Models, sessionId: string, message: string): Promise<string> {
  const title = conversationName(message);
  if (title) await models.Session.updateOne({ _id: sessionId, title: '' }, { $set: { title } }).exec();
  return title;
}

/**
 * Sessions whose first turn began before sessions were named by it: named now, from their
 * first message (one read for all of them, by sequence number), and kept so.
 */
export async function nameUntitled<S extends Pick<SessionDoc, '_id' | 'title' | 'messageSeq' | 'kind'>>(
  models: Models,
  sessions: S[],
): Promise<S[]> {
  const untitled = sessions.filter((s) => !s.title && (s.messageSeq ?? 0) > 0 && s.kind !== 'job');
  if (!untitled.length) return sessions;
  const names = new Map<string, string>();
  try {
    const firsts = await models.Message.find({
      sessionId: { $in: untitled.map((s) => String(s._id)) },
      seq: 1,
      role: 'user',
    })
      .select({ sessionId: 1, content: 1 })
      .lean();
    await Promise.all(
      firsts.map(async (m) => names.set(m.sessionId, await nameSession(models, m.sessionId, m.content))),
    );
  } catch {
    // A name is a convenience: the list is served without it, and the next listing tries again.
  }
  return sessions.map((s) => (names.has(String(s._id)) ? { ...s, title: names.get(String(s._id))! } : s));
}

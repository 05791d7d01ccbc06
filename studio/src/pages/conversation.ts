/**
 * A session's conversation as the chat shows it: the stored turns (from the messages), the
 * turns followed live through their streams, and the session feed that brings turns started
 * elsewhere. One owner for all of it, so no turn is shown twice or lost between the two.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errText, get, type Message, type Turn } from '../api';
import { ACTIVE_TURN, LiveStream } from '../stream';
import { apply, newTurn, type TurnView } from '../turn';

export interface PastTurn {
  turnId: string;
  user: string;
  replies: { agent?: string; content: string }[];
}

export function groupMessages(messages: Message[]): PastTurn[] {
  const turns: PastTurn[] = [];
  for (const m of messages) {
    const key = m.turnId ?? m.id;
    let turn = turns.find((x) => x.turnId === key);
    if (!turn) turns.push((turn = { turnId: key, user: '', replies: [] }));
    if (m.role === 'user') turn.user = m.content;
    else if (m.role === 'assistant' && m.content.trim()) turn.replies.push({ agent: m.agent ?? undefined, content: m.content });
  }
  return turns;
}

type TurnWithMessage = Turn & { message?: string };

export interface Conversation {
  past: PastTurn[];
  views: TurnView[];
  conn: 'live' | 'reconnecting';
  error: string;
  setError: (e: string) => void;
  /** Follows a turn's stream from its first event (once per turn). */
  follow: (turnId: string, userText: string, token?: string) => void;
}

export function useConversation(sessionId: string | undefined): Conversation {
  const [past, setPast] = useState<PastTurn[]>([]);
  const [views, setViews] = useState<TurnView[]>([]);
  const [conn, setConn] = useState<'live' | 'reconnecting'>('live');
  const [error, setError] = useState('');
  /** The stored conversation is on the page (the feed starts only then, knowing the old turns). */
  const [loaded, setLoaded] = useState(false);
  const streams = useRef(new Map<string, LiveStream>());

  const reloadPast = useCallback(() => {
    if (!sessionId) return;
    void get<{ items: Message[] }>(`/sessions/${sessionId}/messages`).then(({ items }) => {
      const following = new Set(streams.current.keys());
      setPast(groupMessages(items).filter((x) => !following.has(x.turnId)));
    });
  }, [sessionId]);
  const reloadPastRef = useRef(reloadPast);
  useEffect(() => {
    reloadPastRef.current = reloadPast;
  }, [reloadPast]);

  /** After a `reset` the stream can say no more: once the turn has ended, its stored messages replace what was shown. */
  const settle = useCallback(async (turnId: string) => {
    for (;;) {
      const turn = await get<Turn>(`/turns/${turnId}`).catch(() => null);
      if (turn && !ACTIVE_TURN.includes(turn.status)) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    streams.current.delete(turnId);
    setViews((vs) => vs.filter((v) => v.turnId !== turnId));
    reloadPastRef.current();
  }, []);

  const follow = useCallback(
    (turnId: string, userText: string, token?: string) => {
      if (streams.current.has(turnId)) return;
      setViews((vs) => (vs.some((v) => v.turnId === turnId) ? vs : [...vs, newTurn(turnId, userText)]));
      const stream = new LiveStream({
        kind: 'turn',
        id: turnId,
        token,
        onEvents: (events) => setViews((vs) => vs.map((v) => (v.turnId === turnId ? apply(v, events) : v))),
        onState: setConn,
        onEnd: (why) => {
          setConn('live');
          if (why !== 'done') void settle(turnId);
        },
      });
      streams.current.set(turnId, stream);
    },
    [settle],
  );

  // The conversation so far, and the session's running turn (at most one) joined from its start.
  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    const live = streams.current;
    void (async () => {
      try {
        const { items } = await get<{ items: Message[] }>(`/sessions/${sessionId}/messages`);
        const active = await get<{ items: TurnWithMessage[] }>(`/sessions/${sessionId}/turns?active=true&limit=1`);
        if (cancelled) return;
        const turns = groupMessages(items);
        const running = active.items[0];
        setPast(running ? turns.filter((x) => x.turnId !== running.id) : turns);
        if (running) follow(running.id, running.message ?? turns.find((x) => x.turnId === running.id)?.user ?? '');
        setLoaded(true);
      } catch (e) {
        if (!cancelled) setError(errText(e));
      }
    })();
    return () => {
      cancelled = true;
      live.forEach((s) => s.close());
      live.clear();
      setViews([]);
      setPast([]);
      setLoaded(false);
    };
  }, [sessionId, follow]);

  // The session's feed: a turn started in another tab or on another device is joined live,
  // one that finished there is read back from the stored messages.
  const known = useRef(new Set<string>());
  useEffect(() => {
    known.current = new Set([...past.map((p) => p.turnId), ...views.map((v) => v.turnId)]);
  }, [past, views]);
  useEffect(() => {
    if (!sessionId || !loaded) return;
    const feed = new LiveStream({
      kind: 'session',
      id: sessionId,
      onEvents: (events) => {
        for (const e of events) {
          const turnId = e.turnId;
          if (!turnId || known.current.has(turnId)) continue;
          if (e.type === 'turn_started') {
            known.current.add(turnId);
            void get<TurnWithMessage>(`/turns/${turnId}`).then((turn) => {
              if (ACTIVE_TURN.includes(turn.status)) follow(turnId, turn.message ?? '');
              else reloadPast();
            });
          } else if (e.type === 'turn_finished') reloadPast();
        }
        if (events.some((e) => e.type === 'reset')) reloadPast();
      },
    });
    return () => feed.close();
  }, [sessionId, loaded, follow, reloadPast]);

  return { past, views, conn, error, setError, follow };
}

/**
 * A session's conversation as the chat shows it: finished turns from their records (what the
 * author saw, kept after the stream expired: GET /sessions/:id/turns?record=true), the turns
 * followed live through their streams, and the session feed that brings turns started
 * elsewhere. One owner for all of it, so no turn is shown twice or lost between them. A turn
 * with no record (one that ended before records were kept; a job's closing message) is shown
 * from its stored messages.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { get, type Message, type Turn } from '../api';
import { ACTIVE_TURN, LiveStream } from '../stream';
import { apply, newTurn, type TurnView } from '../turn';

/** A finished turn known only by its stored messages. */
export interface PastTurn {
  turnId: string;
  user: string;
  replies: { agent?: string; content: string }[];
}

/** A turn before the live ones: its record when it has one, else its messages. */
export type PastEntry =
  { turnId: string; view: TurnView; messages?: undefined } | { turnId: string; view?: undefined; messages: PastTurn };

export function groupMessages(messages: Message[]): PastTurn[] {
  const turns: PastTurn[] = [];
  const byId = new Map<string, PastTurn>();
  for (const m of messages) {
    const key = m.turnId ?? m.id;
    let turn = byId.get(key);
    if (!turn) {
      turn = { turnId: key, user: '', replies: [] };
      byId.set(key, turn);
      turns.push(turn);
    }
    if (m.role === 'user') turn.user = m.content;
    else if (m.role === 'assistant' && m.content.trim())
      turn.replies.push({ agent: m.agent ?? undefined, content: m.content });
  }
  return turns;
}

type TurnWithMessage = Turn & { message?: string; record?: TurnView | null; createdAt?: string; jobId?: string | null };

/** Turns a session page asks for with their records; older ones show from their messages. */
const RECORDED_TURNS = 100;

/** The conversation in message order, each turn from its record when there is one. */
export function pastEntries(messages: Message[], turns: TurnWithMessage[], skip: Set<string>): PastEntry[] {
  const records = new Map(turns.filter((x) => x.record).map((x) => [x.id, x.record!]));
  return groupMessages(messages)
    .filter((g) => !skip.has(g.turnId))
    .map((g) => {
      const view = records.get(g.turnId);
      return view ? { turnId: g.turnId, view } : { turnId: g.turnId, messages: g };
    });
}

export interface Conversation {
  past: PastEntry[];
  views: TurnView[];
  conn: 'live' | 'reconnecting';
  error: string;
  setError: (e: string) => void;
  /** Follows a turn's stream from its first event (once per turn). */
  follow: (turnId: string, userText: string, token?: string) => void;
  /** Steering the author sent, by turn, until the turn's stream shows it. */
  steering: Record<string, string[]>;
  steered: (turnId: string, message: string) => void;
  /** Turns a job started (their message is the job's request, not the author's). */
  jobTurns: Set<string>;
}

/** `describe` words a failed read for the author (the chat's errors, in their language). */
export function useConversation(sessionId: string | undefined, describe: (e: unknown) => string): Conversation {
  const describeRef = useRef(describe);
  useEffect(() => {
    describeRef.current = describe;
  }, [describe]);
  const [past, setPast] = useState<PastEntry[]>([]);
  const [views, setViews] = useState<TurnView[]>([]);
  const [conn, setConn] = useState<'live' | 'reconnecting'>('live');
  const [error, setError] = useState('');
  const [steering, setSteering] = useState<Record<string, string[]>>({});
  const [jobTurns, setJobTurns] = useState<Set<string>>(new Set());
  const noteJobTurns = useCallback((turns: TurnWithMessage[]) => {
    const ids = turns.filter((x) => x.jobId).map((x) => x.id);
    if (ids.length) setJobTurns((s) => (ids.every((id) => s.has(id)) ? s : new Set([...s, ...ids])));
  }, []);
  /** The stored conversation is on the page (the feed starts only then, knowing the old turns). */
  const [loaded, setLoaded] = useState(false);
  const streams = useRef(new Map<string, LiveStream>());

  /** The session's messages and its latest turns with their records, read together. */
  const readSession = useCallback(
    async (sid: string) => {
      const [messages, turns] = await Promise.all([
        get<{ items: Message[] }>(`/sessions/${sid}/messages`),
        get<{ items: TurnWithMessage[] }>(`/sessions/${sid}/turns?record=true&limit=${RECORDED_TURNS}`),
      ]);
      noteJobTurns(turns.items);
      return { messages: messages.items, turns: turns.items };
    },
    [noteJobTurns],
  );

  const reloadPast = useCallback(() => {
    if (!sessionId) return;
    void readSession(sessionId).then(({ messages, turns }) =>
      setPast(pastEntries(messages, turns, new Set(streams.current.keys()))),
    );
  }, [sessionId, readSession]);
  const reloadPastRef = useRef(reloadPast);
  useEffect(() => {
    reloadPastRef.current = reloadPast;
  }, [reloadPast]);

  /** After a `reset` the stream can say no more: once the turn has ended, its record replaces what was shown. */
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

  const steered = useCallback((turnId: string, message: string) => {
    setSteering((s) => ({ ...s, [turnId]: [...(s[turnId] ?? []), message] }));
  }, []);

  // The conversation so far, and the session's running turn (at most one) joined from its start.
  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    const live = streams.current;
    void (async () => {
      try {
        const { messages, turns } = await readSession(sessionId);
        if (cancelled) return;
        const running = turns.find((x) => ACTIVE_TURN.includes(x.status));
        setPast(pastEntries(messages, turns, new Set(running ? [running.id] : [])));
        if (running)
          follow(
            running.id,
            running.message ?? groupMessages(messages).find((x) => x.turnId === running.id)?.user ?? '',
          );
        setLoaded(true);
      } catch (e) {
        if (!cancelled) setError(describeRef.current(e));
      }
    })();
    return () => {
      cancelled = true;
      live.forEach((s) => s.close());
      live.clear();
      setViews([]);
      setPast([]);
      setSteering({});
      setLoaded(false);
    };
  }, [sessionId, follow, readSession]);

  // The session's feed: a turn started in another tab or on another device is joined live,
  // one that finished there is read back from its record.
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
          // A job that ends or stops to wait (completed, failed, paused at its budget) posts its
          // closing message before it says so: read the conversation again to show it.
          if (
            e.type === 'job_summary' ||
            e.type === 'job_finished' ||
            (e.type === 'job_progress' && e.data.kind === 'status' && e.data.status === 'paused')
          ) {
            reloadPast();
            continue;
          }
          const turnId = e.turnId;
          if (!turnId || known.current.has(turnId)) continue;
          if (e.type === 'turn_started') {
            known.current.add(turnId);
            void get<TurnWithMessage>(`/turns/${turnId}`).then((turn) => {
              noteJobTurns([turn]);
              if (ACTIVE_TURN.includes(turn.status)) follow(turnId, turn.message ?? '');
              else reloadPast();
            });
          } else if (e.type === 'turn_finished') reloadPast();
        }
        if (events.some((e) => e.type === 'reset')) reloadPast();
      },
    });
    return () => feed.close();
  }, [sessionId, loaded, follow, reloadPast, noteJobTurns]);

  return { past, views, conn, error, setError, follow, steering, steered, jobTurns };
}

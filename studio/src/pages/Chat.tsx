/**
 * A session's conversation. Finished turns are read from the stored messages; a turn sent
 * here, or one already running when the page opens, is followed live through its stream
 * (from its first event: a reload rebuilds exactly what was shown). Steer and stop while it
 * runs; approval cards answer the turn's questions; suggestions send themselves.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { get, type Message, post, type Session, type StartedTurn, type Turn, errText } from '../api';
import { tk, useI18n, when } from '../i18n';
import { href, navigate } from '../router';
import { ACTIVE_TURN, LiveStream } from '../stream';
import { apply, newTurn, type TurnView } from '../turn';
import { useProject } from './Project';
import { TurnCard } from './TurnCard';

interface PastTurn {
  turnId: string;
  user: string;
  replies: { agent?: string; content: string }[];
}

function groupMessages(messages: Message[]): PastTurn[] {
  const turns: PastTurn[] = [];
  for (const m of messages) {
    const key = m.turnId ?? m.id;
    let turn = turns.find((x) => x.turnId === key);
    if (!turn) turns.push((turn = { turnId: key, user: '', replies: [] }));
    if (m.role === 'user') turn.user = m.content;
    else if (m.role === 'assistant' && m.content.trim()) turn.replies.push({ agent: m.agent, content: m.content });
  }
  return turns;
}

function PastTurnView({ turn }: { turn: PastTurn }) {
  const { t } = useI18n();
  return (
    <article className="turn" data-turn-id={turn.turnId} data-status="stored">
      {turn.user && (
        <div className="user-msg">
          <span className="who">{t.you}</span>
          <div>{turn.user}</div>
        </div>
      )}
      <div className="assistant">
        {turn.replies.map((r, i) => (
          <div key={i}>
            {r.agent && <div className="agent-chip">{tk(t, `agent_${r.agent}`)}</div>}
            <div className="msg-text">{r.content}</div>
          </div>
        ))}
      </div>
    </article>
  );
}

function TaskBoard() {
  const { t } = useI18n();
  const { project } = useProject();
  const tasks = project.tasks ?? [];
  return (
    <section className="board card" aria-labelledby="board-h" data-testid="task-board">
      <h2 id="board-h">{t.taskBoard}</h2>
      {tasks.length === 0 ? (
        <p className="muted small">{t.noTasks}</p>
      ) : (
        <ul>
          {tasks.map((task) => (
            <li key={task.id} data-status={task.status}>
              <span aria-hidden="true">{task.status === 'done' ? '☑' : task.status === 'in_progress' ? '◐' : '☐'}</span> {task.title}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ChatPage({ projectId, sessionId }: { projectId: string; sessionId?: string }) {
  const { t, lang } = useI18n();
  const { reloadFiles, reloadProject } = useProject();
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [past, setPast] = useState<PastTurn[]>([]);
  const [views, setViews] = useState<TurnView[]>([]);
  const [text, setText] = useState('');
  const [steer, setSteer] = useState('');
  const [error, setError] = useState('');
  const [conn, setConn] = useState<'live' | 'reconnecting'>('live');
  /** The stored conversation is on the page (the feed starts only then, knowing the old turns). */
  const [loaded, setLoaded] = useState(false);
  const streams = useRef(new Map<string, LiveStream>());
  const reloadPastRef = useRef<() => void>(() => undefined);
  const logRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // Sessions of the project; without one in the URL, the latest.
  useEffect(() => {
    get<{ items: Session[] }>(`/sessions?projectId=${projectId}&limit=100`)
      .then((r) => {
        setSessions(r.items);
        if (!sessionId && r.items[0]) navigate(href({ page: 'project', projectId, tab: 'chat', sub: r.items[0].id }), true);
      })
      .catch((e: unknown) => setError(errText(e)));
  }, [projectId, sessionId]);

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
          if (why === 'done') return;
          // The stream cannot say more (a `reset`): the stored turn is the truth. Once it has
          // ended, its stored messages replace what the stream had shown.
          void (async () => {
            for (;;) {
              const turn = await get<Turn>(`/turns/${turnId}`).catch(() => null);
              if (turn && !ACTIVE_TURN.includes(turn.status)) break;
              await new Promise((r) => setTimeout(r, 2000));
            }
            streams.current.delete(turnId);
            setViews((vs) => vs.filter((v) => v.turnId !== turnId));
            reloadPastRef.current();
          })();
        },
      });
      streams.current.set(turnId, stream);
    },
    [],
  );

  // The conversation so far, and a turn still running in it joined from its start.
  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    const live = streams.current;
    void (async () => {
      try {
        const { items } = await get<{ items: Message[] }>(`/sessions/${sessionId}/messages`);
        if (cancelled) return;
        const turns = groupMessages(items);
        // The session's running turn (at most one), joined from its first event.
        const active = await get<{ items: (Turn & { message?: string })[] }>(`/sessions/${sessionId}/turns?active=true&limit=1`);
        const running = active.items[0];
        if (cancelled) return;
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
  const reloadPast = useCallback(() => {
    if (!sessionId) return;
    void get<{ items: Message[] }>(`/sessions/${sessionId}/messages`).then(({ items }) => {
      const following = new Set(streams.current.keys());
      setPast(groupMessages(items).filter((x) => !following.has(x.turnId)));
    });
  }, [sessionId]);
  useEffect(() => {
    reloadPastRef.current = reloadPast;
  }, [reloadPast]);
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
            void get<Turn & { message?: string }>(`/turns/${turnId}`).then((turn) => {
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

  // Files and the task board follow what the turns do.
  const filesChanged = views.reduce((n, v) => n + v.filesChanged, 0);
  const boardChanged = views.reduce((n, v) => n + v.boardChanged, 0);
  const doneCount = views.filter((v) => v.status === 'done').length;
  useEffect(() => {
    if (filesChanged || doneCount) reloadFiles();
  }, [filesChanged, doneCount, reloadFiles]);
  useEffect(() => {
    if (boardChanged || doneCount) reloadProject();
  }, [boardChanged, doneCount, reloadProject]);

  // The board as it is now (a job or another tab may have changed it since the project loaded).
  useEffect(() => reloadProject(), [reloadProject]);

  // Keeps the newest text in view while the author has not scrolled up.
  useEffect(() => {
    const el = logRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const running = views.find((v) => v.status === 'running');

  const send = async (message: string) => {
    const msg = message.trim();
    if (!msg) return;
    setError('');
    try {
      let sid = sessionId;
      if (!sid) {
        const s = await post<Session>('/sessions', { projectId });
        sid = s.id;
        navigate(href({ page: 'project', projectId, tab: 'chat', sub: sid }), true);
      }
      const started = await post<StartedTurn & { approval?: unknown }>(`/sessions/${sid}/turns`, { message: msg });
      setText('');
      // A plain yes / no to a waiting approval answers it: the running turn goes on.
      if (!started.approval) follow(started.turnId, msg, started.streamToken);
    } catch (e) {
      setError(errText(e));
    }
  };

  const decide = useCallback((turnId: string, approvalId: string, decision: 'approve' | 'deny') => {
    post(`/turns/${turnId}/approvals/${approvalId}`, { decision }).catch((e: unknown) => setError(errText(e)));
  }, []);

  const newSession = async () => {
    const s = await post<Session>('/sessions', { projectId });
    setSessions((list) => [s, ...(list ?? [])]);
    navigate(href({ page: 'project', projectId, tab: 'chat', sub: s.id }));
  };

  const latest = views[views.length - 1];
  return (
    <div className="chat-layout">
      <section className="chat" aria-label={t.chat}>
        <div className="row session-bar">
          <label>
            <span className="sr-only">{t.session}</span>
            <select
              aria-label={t.session}
              value={sessionId ?? ''}
              onChange={(e) => navigate(href({ page: 'project', projectId, tab: 'chat', sub: e.target.value }))}
            >
              {!sessionId && <option value="">{t.newSession}</option>}
              {(sessions ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title || when(s.createdAt, lang)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="secondary small" onClick={() => void newSession()}>
            {t.newSession}
          </button>
        </div>
        <div
          className="log"
          ref={logRef}
          tabIndex={0}
          role="log"
          aria-label={t.chat}
          onScroll={(e) => {
            const el = e.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          }}
        >
          {past.map((turn) => (
            <PastTurnView key={turn.turnId} turn={turn} />
          ))}
          {views.map((v) => (
            <TurnCard key={v.turnId} view={v} projectId={projectId} onDecide={(a, d) => decide(v.turnId, a, d)} />
          ))}
          {latest && latest.status === 'done' && latest.suggestions.length > 0 && (
            <div className="suggestions" role="group" aria-label={t.suggestions}>
              <span className="muted small">{t.suggestions}:</span>
              {latest.suggestions.map((s) => (
                <button key={s} type="button" className="secondary small" onClick={() => void send(s)}>
                  {s}
                </button>
              ))}
            </div>
          )}
        </div>
        {conn === 'reconnecting' && (
          <p role="status" className="muted small">
            {t.reconnecting}
          </p>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {running ? (
          <form
            className="composer"
            onSubmit={(e) => {
              e.preventDefault();
              const m = steer.trim();
              if (!m) return;
              post(`/turns/${running.turnId}/steer`, { message: m })
                .then(() => setSteer(''))
                .catch((err: unknown) => setError(errText(err)));
            }}
          >
            <p role="status" className="muted small">
              {t.running}
            </p>
            <label className="grow">
              <span className="sr-only">{t.steerLabel}</span>
              <input value={steer} onChange={(e) => setSteer(e.target.value)} placeholder={t.steerLabel} aria-label={t.steerLabel} />
            </label>
            <button type="submit">{t.steer}</button>
            <button type="button" className="danger" onClick={() => void post(`/turns/${running.turnId}/interrupt`, {}).catch((err: unknown) => setError(errText(err)))}>
              {t.interrupt}
            </button>
          </form>
        ) : (
          <form
            className="composer"
            onSubmit={(e) => {
              e.preventDefault();
              void send(text);
            }}
          >
            <label className="grow">
              <span className="sr-only">{t.message}</span>
              <textarea
                value={text}
                rows={2}
                aria-label={t.message}
                placeholder={t.sendHint}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    void send(text);
                  }
                }}
              />
            </label>
            <button type="submit">{t.send}</button>
          </form>
        )}
      </section>
      <TaskBoard />
    </div>
  );
}

/**
 * A session's conversation. Finished turns are read back from their records and shown by the
 * same card as a live turn; a turn sent here, or one already running when the page opens, is
 * followed live through its stream (from its first event: a reload rebuilds exactly what was
 * shown). Steer and stop while it runs; approval cards answer the turn's questions;
 * suggestions send themselves. The author's conversations are named by their first message;
 * the sessions jobs write in are listed apart.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { get, post, type Session, type StartedTurn } from '../api';
import { fmt, tk, useI18n, when } from '../i18n';
import { href, navigate } from '../router';
import type { TurnView } from '../turn';
import { conversationName } from '../../../src/core/session-names';
import { chatError } from './chat-errors';
import { type PastTurn, useConversation } from './conversation';
import { useProject } from './Project';
import { TaskBoard } from './TaskBoard';
import { TurnCard } from './TurnCard';

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

/** A session as the list gives it: a conversation (named by its first message) or a job's own. */
type ListedSession = Session & { kind?: 'chat' | 'job'; jobChapters?: { from: number; to: number } | null };

/**
 * The project's conversations, the current one picked, a new one on demand; the sessions jobs
 * wrote in are a list of their own ("Job runs"), never mixed into the conversations.
 * `firstMessage` names the current conversation before the list has its name.
 */
function SessionBar({
  projectId,
  sessionId,
  firstMessage,
}: {
  projectId: string;
  sessionId?: string;
  firstMessage: string;
}) {
  const { t, lang } = useI18n();
  const [sessions, setSessions] = useState<ListedSession[]>([]);
  const [error, setError] = useState('');
  const named = firstMessage !== '';
  // Without a session in the URL, the latest conversation. Read again once the current one has a name.
  useEffect(() => {
    get<{ items: ListedSession[] }>(`/sessions?projectId=${projectId}&limit=100`)
      .then((r) => {
        setSessions(r.items);
        const latest = r.items.find((x) => x.kind !== 'job');
        if (!sessionId && latest) navigate(href({ page: 'project', projectId, tab: 'chat', sub: latest.id }), true);
      })
      .catch((e: unknown) => setError(chatError(t, 'sessions', e)));
  }, [projectId, sessionId, named, t]);
  const newSession = async () => {
    try {
      // The interface language: the team answers in it until the author's own words set one.
      const s = await post<ListedSession>('/sessions', { projectId, uiLanguage: lang });
      setSessions((list) => [s, ...list]);
      navigate(href({ page: 'project', projectId, tab: 'chat', sub: s.id }));
    } catch (e) {
      setError(chatError(t, 'sessions', e));
    }
  };
  const open = (id: string) => navigate(href({ page: 'project', projectId, tab: 'chat', sub: id }));
  const chats = sessions.filter((s) => s.kind !== 'job');
  const jobs = sessions.filter((s) => s.kind === 'job');
  const current = sessions.find((s) => s.id === sessionId);
  const chatName = (s: ListedSession) =>
    s.title || (s.id === sessionId && firstMessage) || `${t.untitledConversation} · ${when(s.createdAt, lang)}`;
  const chapters = (c: { from: number; to: number }) => (c.from === c.to ? fmt(t.jobRunOne, c) : fmt(t.jobRunName, c));
  const jobName = (s: ListedSession) =>
    `${s.jobChapters ? chapters(s.jobChapters) : t.jobRun} · ${when(s.createdAt, lang)}`;
  return (
    <div className="row session-bar">
      <label>
        <span className="sr-only">{t.session}</span>
        <select
          aria-label={t.session}
          value={current?.kind === 'job' ? '' : (sessionId ?? '')}
          onChange={(e) => e.target.value && open(e.target.value)}
        >
          {!sessionId && <option value="">{t.newSession}</option>}
          {current?.kind === 'job' && <option value="">{t.conversations}</option>}
          {/* A session the list does not have yet (just made): still the one shown. */}
          {sessionId && !current && <option value={sessionId}>{firstMessage || t.untitledConversation}</option>}
          {chats.map((s) => (
            <option key={s.id} value={s.id}>
              {chatName(s)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="secondary small" onClick={() => void newSession()}>
        {t.newSession}
      </button>
      {jobs.length > 0 && (
        <label className="job-runs">
          <span className="sr-only">{t.jobRuns}</span>
          <select
            aria-label={t.jobRuns}
            value={current?.kind === 'job' ? current.id : ''}
            onChange={(e) => e.target.value && open(e.target.value)}
            data-testid="job-runs"
          >
            <option value="">
              {t.jobRuns} ({jobs.length})
            </option>
            {jobs.map((s) => (
              <option key={s.id} value={s.id}>
                {jobName(s)}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <span role="alert" className="error small">
          {error}
        </span>
      )}
    </div>
  );
}

/** The message box; while a turn runs, steering and the stop button instead. */
function Composer({
  running,
  onSend,
  onSteered,
  onError,
}: {
  running?: TurnView;
  onSend: (message: string) => Promise<boolean>;
  onSteered: (turnId: string, message: string) => void;
  onError: (e: string) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [steer, setSteer] = useState('');
  const send = () => void onSend(text).then((sent) => sent && setText(''));
  if (running)
    return (
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          const m = steer.trim();
          if (!m) return;
          // Taken: it shows on the turn as received, to be applied at the next step.
          post(`/turns/${running.turnId}/steer`, { message: m })
            .then(() => {
              setSteer('');
              onSteered(running.turnId, m);
            })
            .catch((err: unknown) => onError(chatError(t, 'steer', err)));
        }}
      >
        <p role="status" className="muted small">
          {/* A turn waiting on an approval is not working: it waits for the author. */}
          {running.items.some((i) => i.kind === 'approval' && !i.decision) ? t.awaitingYou : t.running}
        </p>
        <label className="grow">
          <span className="sr-only">{t.steerLabel}</span>
          <input
            value={steer}
            onChange={(e) => setSteer(e.target.value)}
            placeholder={t.steerLabel}
            aria-label={t.steerLabel}
          />
        </label>
        <button type="submit">{t.steer}</button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            void post(`/turns/${running.turnId}/interrupt`, {}).catch((err: unknown) =>
              onError(chatError(t, 'stop', err)),
            )
          }
        >
          {t.interrupt}
        </button>
      </form>
    );
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
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
              send();
            }
          }}
        />
      </label>
      <button type="submit">{t.send}</button>
    </form>
  );
}

export function ChatPage({ projectId, sessionId }: { projectId: string; sessionId?: string }) {
  const { t, lang } = useI18n();
  const { reloadFiles, reloadProject } = useProject();
  const describe = useCallback((e: unknown) => chatError(t, 'sessions', e), [t]);
  const { past, views, conn, error, setError, follow, steering, steered, jobTurns } = useConversation(
    sessionId,
    describe,
  );
  const logRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // Files and the task board follow what the turns do; the board is fresh on opening too.
  const filesChanged = views.reduce((n, v) => n + v.filesChanged, 0);
  const boardChanged = views.reduce((n, v) => n + v.boardChanged, 0);
  const doneCount = views.filter((v) => v.status === 'done').length;
  useEffect(() => {
    if (filesChanged || doneCount) reloadFiles();
  }, [filesChanged, doneCount, reloadFiles]);
  useEffect(() => reloadProject(), [boardChanged, doneCount, reloadProject]);

  // Keeps the newest text in view while the author has not scrolled up.
  useEffect(() => {
    const el = logRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  /** Sends a message as the session's next turn (a new session first when there is none); true once the API took it. */
  const send = async (message: string): Promise<boolean> => {
    const msg = message.trim();
    if (!msg) return false;
    setError('');
    try {
      let sid = sessionId;
      if (!sid) {
        sid = (await post<Session>('/sessions', { projectId, uiLanguage: lang })).id;
        navigate(href({ page: 'project', projectId, tab: 'chat', sub: sid }), true);
      }
      const started = await post<StartedTurn & { approval?: unknown }>(`/sessions/${sid}/turns`, {
        message: msg,
        uiLanguage: lang,
      });
      // A plain yes / no to a waiting approval answers it: the running turn goes on.
      if (!started.approval) follow(started.turnId, msg, started.streamToken);
      return true;
    } catch (e) {
      setError(chatError(t, 'send', e));
      return false;
    }
  };

  const decide = useCallback(
    (turnId: string, approvalId: string, decision: 'approve' | 'deny') => {
      post(`/turns/${turnId}/approvals/${approvalId}`, { decision }).catch((e: unknown) =>
        setError(chatError(t, 'decide', e)),
      );
    },
    [setError, t],
  );

  const running = views.find((v) => v.status === 'running');
  // The newest turn, live or from its record: its next steps are offered once it is done.
  const latest = views[views.length - 1] ?? past[past.length - 1]?.view;
  const first = past[0] ? (past[0].view?.userText ?? past[0].messages?.user ?? '') : (views[0]?.userText ?? '');
  return (
    <div className="chat-layout">
      <section className="chat" aria-label={t.chat}>
        <SessionBar projectId={projectId} sessionId={sessionId} firstMessage={first ? conversationName(first) : ''} />
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
          {past.map((entry) =>
            entry.view ? (
              <TurnCard key={entry.turnId} view={entry.view} projectId={projectId} byJob={jobTurns.has(entry.turnId)} />
            ) : (
              <PastTurnView key={entry.turnId} turn={entry.messages} />
            ),
          )}
          {views.map((v) => (
            <TurnCard
              key={v.turnId}
              view={v}
              projectId={projectId}
              onDecide={(a, d) => decide(v.turnId, a, d)}
              steering={steering[v.turnId]}
              byJob={jobTurns.has(v.turnId)}
            />
          ))}
          {latest && latest.status === 'done' && latest.suggestions.length > 0 && (
            <div className="suggestions" role="group" aria-label={t.suggestions}>
              <span className="muted small">
                {t.suggestions}
                {t.recColon}
              </span>
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
        <Composer running={running} onSend={send} onSteered={steered} onError={setError} />
      </section>
      <TaskBoard />
    </div>
  );
}

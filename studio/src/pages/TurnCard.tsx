/**
 * One turn as the author sees it — streamed live, or read back from its record after a reload
 * or once its stream expired: the same view (src/core/turn/turn-view.ts) and the same component, so
 * it looks the same either way. Every line is in the author's words (./steps.ts).
 */
import { memo, useLayoutEffect, useRef } from 'react';
import { type Dict, fmt, tk, useI18n } from '../i18n';
import { href, navigate } from '../router';
import type { FileCard as FileCardItem, Item, TurnView } from '../turn';
import { stepLine, word } from './steps';

/** The body of a file as it streams in, kept scrolled to its end. */
function LiveBody({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    <pre className="file-live" ref={ref} tabIndex={0} data-testid="file-live">
      {text}
    </pre>
  );
}

/**
 * A job's request to its chapter's turn: its first line says what the job asked ("Write chapter
 * 3 …"); the rest is the brief for the writer, folded away, without the file ids the agents need.
 */
function JobRequest({ text }: { text: string }) {
  const { t } = useI18n();
  const [head, ...rest] = text.replace(/\s*\(id=[0-9a-f]{24}\)/g, '').split('\n');
  return (
    <div>
      {head}
      {rest.length > 0 && (
        <details className="job-brief">
          <summary className="small muted">{t.jobBriefMore}</summary>
          <div className="small">{rest.join('\n')}</div>
        </details>
      )}
    </div>
  );
}

function InAppLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <a
      href={to}
      className="button small"
      onClick={(e) => {
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

/** A file's card: written as it streams, then saved (with its words and version), in the trash, or not saved. */
function FileCard({ item, projectId }: { item: FileCardItem; projectId: string }) {
  const { t } = useI18n();
  const title = item.title || t.recAFile;
  if (item.op === 'streaming' || item.live > 0)
    return (
      <div className="file-card streaming" data-file-id={item.fileId} data-op="streaming">
        <span aria-hidden="true">✎</span> <span className="muted">{t.file_writing}</span> <strong>{title}</strong>{' '}
        <span className="muted small">
          · {item.live.toLocaleString()} {t.chars}…
        </span>
        <LiveBody text={item.body} />
      </div>
    );
  if (item.op === 'discarded')
    return (
      <div className="file-card discarded" data-file-id={item.fileId} data-op="discarded">
        <span aria-hidden="true">○</span> <span className="muted">{t.file_discarded}</span> <strong>{title}</strong>{' '}
        <span className="muted small">· {t.file_discarded_why}</span>
      </div>
    );
  if (item.op === 'deleted')
    return (
      <div className="file-card deleted" data-file-id={item.fileId} data-op="deleted">
        <span aria-hidden="true">✗</span> <span className="muted">{t.file_deleted}</span>
        {t.recColon}
        <strong>{title}</strong>{' '}
        <InAppLink to={href({ page: 'project', projectId, tab: 'trash' })}>{t.recOpenTrash}</InAppLink>
      </div>
    );
  const to = href({ page: 'project', projectId, tab: 'file', sub: item.fileId });
  return (
    <div className="file-card" data-file-id={item.fileId} data-op={item.op} data-version={item.version}>
      <span aria-hidden="true">▤</span>{' '}
      <span className="muted">{item.op === 'created' ? t.file_created : t.file_updated}</span> <strong>{title}</strong>{' '}
      <span className="muted small" data-testid="file-facts">
        · {fmt(t.fileWords, { n: item.words.toLocaleString() })}
        {item.version ? ` · ${fmt(t.fileVersion, { n: item.version })}` : ''}
      </span>{' '}
      <InAppLink to={to}>
        {t.openFile}
        <span className="sr-only"> {title}</span>
      </InAppLink>
    </div>
  );
}

interface Props {
  view: TurnView;
  projectId: string;
  onDecide?: (approvalId: string, decision: 'approve' | 'deny') => void;
  /** Steering the author sent that the turn has not taken up yet (it shows on the stream at the next step). */
  steering?: string[];
  /** A job's turn: its message is the job's request to the team, not the author's words. */
  byJob?: boolean;
}

const stopText = (t: Dict, reason: string): string => word(t, `stop_${reason}`) ?? t.stop_other;

function ItemView({
  item,
  projectId,
  running,
  onDecide,
}: {
  item: Item;
  projectId: string;
  running: boolean;
  onDecide?: Props['onDecide'];
}) {
  const { t } = useI18n();
  switch (item.kind) {
    case 'agent':
      return <div className="agent-chip">{tk(t, `agent_${item.agent}`)}</div>;
    case 'text':
      return <div className="msg-text">{item.text}</div>;
    case 'thinking':
      return (
        <details className="thinking">
          <summary>{t.thinking}</summary>
          <div className="thinking-text">{item.text}</div>
        </details>
      );
    case 'tool': {
      const line = stepLine(t, item, running);
      if (!line) return null;
      return (
        <div className={`tool ${line.tone}`} data-tone={line.tone}>
          <span aria-hidden="true">
            {line.tone === 'ok' ? '✓' : line.tone === 'running' ? '…' : line.tone === 'refused' ? '◇' : '!'}
          </span>{' '}
          {line.text}
        </div>
      );
    }
    case 'file':
      return <FileCard item={item} projectId={projectId} />;
    case 'handoff':
      return (
        <div className="handoff">
          → {item.text || `${word(t, `who_${item.from ?? ''}`) ?? ''} → ${word(t, `who_${item.to ?? ''}`) ?? ''}`}
        </div>
      );
    case 'stopped':
      return (
        <div className="stopped" data-reason={item.reason}>
          ■ {stopText(t, item.reason)}
        </div>
      );
    case 'steer':
      return (
        <div className="steer" data-state="applied">
          ✎ {t.steerApplied}
          {t.recColon}“{item.message}”
        </div>
      );
    case 'retry':
      return <div className="muted small">↻ {t.retried}</div>;
    case 'error':
      return <div className="error turn-error">{t.turnFailed}</div>;
    case 'approval':
      return (
        <div className="approval card" role="group" aria-label={t.approvalTitle} data-approval-id={item.approvalId}>
          <h3>{t.approvalTitle}</h3>
          <p>
            {item.action === 'delete' ? t.approvalDelete : t.approvalRewrite}
            {t.recColon}
            <strong>{item.files.map((f) => f.title).join(t.recColon === '：' ? '、' : ', ') || item.title}</strong>
          </p>
          {item.change ? (
            <>
              <p className="small">{fmt(t.approvalChange, item.change)}</p>
              {item.excerpt && <pre className="preview">{item.excerpt}</pre>}
            </>
          ) : (
            item.preview && <pre className="preview">{item.preview}</pre>
          )}
          {item.decision ? (
            <p className="decision" data-decision={item.decision}>
              {item.decision === 'approve' ? t.approved : item.decision === 'deny' ? t.denied : t.timedOut}
            </p>
          ) : running ? (
            <div className="row">
              <button type="button" onClick={() => onDecide?.(item.approvalId, 'approve')}>
                {t.approve}
              </button>
              <button type="button" className="secondary" onClick={() => onDecide?.(item.approvalId, 'deny')}>
                {t.deny}
              </button>
            </div>
          ) : (
            <p className="decision" data-decision="none">
              {t.timedOut}
            </p>
          )}
        </div>
      );
  }
}

/** Steering sent and not yet on the stream: applied at the next step, or unused when the turn ended first. */
function PendingSteering({ messages, running }: { messages: string[]; running: boolean }) {
  const { t } = useI18n();
  return messages.map((m, i) => (
    <div key={i} className="steer" data-state={running ? 'pending' : 'unused'} role="status">
      ✎ {running ? t.steerPending : t.steerUnused}
      {t.recColon}“{m}”
    </div>
  ));
}

export const TurnCard = memo(function TurnCard({ view, projectId, onDecide, steering = [], byJob = false }: Props) {
  const { t } = useI18n();
  const running = view.status === 'running';
  // Steering the stream has shown is applied; only the rest is still pending.
  const shown = view.items.filter((i) => i.kind === 'steer').map((i) => (i as { message: string }).message);
  const pending = steering.filter((m, i) => steering.indexOf(m) === i && !shown.includes(m));
  return (
    <article className="turn" data-turn-id={view.turnId} data-status={view.status} aria-busy={running}>
      <div className={byJob ? 'user-msg job-request' : 'user-msg'}>
        <span className="who">{byJob ? t.jobAsked : t.you}</span>
        {byJob ? <JobRequest text={view.userText} /> : <div>{view.userText}</div>}
      </div>
      <div className="assistant">
        {view.items.map((item, i) => (
          <ItemView key={i} item={item} projectId={projectId} running={running} onDecide={onDecide} />
        ))}
        <PendingSteering messages={pending} running={running} />
        {view.verdict && (
          <div className={`verdict ${view.verdict}`} data-verdict={view.verdict}>
            {view.verdict === 'pass' ? t.verdictPass : t.verdictRevise}
          </div>
        )}
        {(view.tokens > 0 || !running) && (
          <div className="usage muted small" data-testid="usage">
            {t.usage}
            {t.recColon}
            {view.tokens.toLocaleString()} {t.tokens}
            {view.costUsd !== null && ` · $${view.costUsd.toFixed(4)}`}
            {!running && view.doneStatus && ` · ${word(t, `turn_${view.doneStatus}`) ?? ''}`}
          </div>
        )}
      </div>
    </article>
  );
});

/** One turn as the author sees it: streamed live from its events, or read back from the stored messages. */
import { memo, useLayoutEffect, useRef } from 'react';
import { tk, useI18n } from '../i18n';
import { href, navigate } from '../router';
import type { Item, TurnView } from '../turn';

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

function FileCard({ item, projectId }: { item: Extract<Item, { kind: 'file' }>; projectId: string }) {
  const { t } = useI18n();
  const to = href({ page: 'project', projectId, tab: 'file', sub: item.fileId });
  if (item.op === 'streaming' || item.live > 0)
    return (
      <div className="file-card streaming" data-file-id={item.fileId}>
        <span aria-hidden="true">✎</span> {item.title || '…'} <span className="muted small">{item.live.toLocaleString()} {t.chars}…</span>
        <LiveBody text={item.body} />
      </div>
    );
  return (
    <div className="file-card" data-file-id={item.fileId} data-op={item.op}>
      <span aria-hidden="true">▤</span> <span className="muted">{item.op === 'created' ? t.created : t.saved}</span> <strong>{item.title}</strong>{' '}
      <span className="muted small">
        · {item.words} {t.words}
      </span>{' '}
      <a
        href={to}
        className="button small"
        onClick={(e) => {
          e.preventDefault();
          navigate(to);
        }}
      >
        {t.openFile}
        <span className="sr-only"> {item.title}</span>
      </a>
    </div>
  );
}

interface Props {
  view: TurnView;
  projectId: string;
  onDecide?: (approvalId: string, decision: 'approve' | 'deny') => void;
}

function ItemView({ item, projectId, running, onDecide }: { item: Item; projectId: string; running: boolean; onDecide?: Props['onDecide'] }) {
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
    case 'tool':
      return (
        <div className={`tool ${item.ok === false ? (item.refusal ? 'refused' : 'failed') : ''}`}>
          <span aria-hidden="true">⚙</span> {item.summary} {item.ok === true && <span aria-label="ok">✓</span>}
          {item.ok === false && <span className="small"> — {item.message}</span>}
        </div>
      );
    case 'file':
      return <FileCard item={item} projectId={projectId} />;
    case 'handoff':
      return <div className="handoff">→ {item.text}</div>;
    case 'stopped':
      return (
        <div className="stopped" data-reason={item.reason}>
          ■ {t.stopped}: {item.message}
        </div>
      );
    case 'steer':
      return (
        <div className="steer">
          ✎ {t.steered}: {item.message}
        </div>
      );
    case 'retry':
      return <div className="muted small">↻ {t.retried}</div>;
    case 'error':
      return (
        <div className="error">
          {t.turnError}: {item.message}
        </div>
      );
    case 'approval':
      return (
        <div className="approval card" role="group" aria-label={t.approvalTitle} data-approval-id={item.approvalId}>
          <h3>{t.approvalTitle}</h3>
          <p>
            {item.action === 'delete' ? t.approvalDelete : t.approvalRewrite}: <strong>{item.files.map((f) => f.title).join(', ') || item.title}</strong>
          </p>
          {item.preview && <pre className="preview">{item.preview}</pre>}
          {item.decision ? (
            <p className="decision" data-decision={item.decision}>
              {item.decision === 'approve' ? t.approved : item.decision === 'deny' ? t.denied : t.timedOut}
            </p>
          ) : (
            running && (
              <div className="row">
                <button type="button" onClick={() => onDecide?.(item.approvalId, 'approve')}>
                  {t.approve}
                </button>
                <button type="button" className="secondary" onClick={() => onDecide?.(item.approvalId, 'deny')}>
                  {t.deny}
                </button>
              </div>
            )
          )}
        </div>
      );
  }
}

export const TurnCard = memo(function TurnCard({ view, projectId, onDecide }: Props) {
  const { t } = useI18n();
  const running = view.status === 'running';
  return (
    <article className="turn" data-turn-id={view.turnId} data-status={view.status} aria-busy={running}>
      <div className="user-msg">
        <span className="who">{t.you}</span>
        <div>{view.userText}</div>
      </div>
      <div className="assistant">
        {view.items.map((item, i) => (
          <ItemView key={i} item={item} projectId={projectId} running={running} onDecide={onDecide} />
        ))}
        {view.verdict && (
          <div className={`verdict ${view.verdict}`} data-verdict={view.verdict}>
            {view.verdict === 'pass' ? t.verdictPass : t.verdictRevise}
          </div>
        )}
        {(view.tokens > 0 || !running) && (
          <div className="usage muted small" data-testid="usage">
            {t.usage}: {view.tokens.toLocaleString()} {t.tokens}
            {view.costUsd !== null && ` · $${view.costUsd.toFixed(4)}`}
            {!running && view.doneStatus && ` · ${tk(t, `turn_${view.doneStatus}`)}`}
          </div>
        )}
      </div>
    </article>
  );
});

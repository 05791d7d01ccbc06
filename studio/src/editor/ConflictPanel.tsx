/** The newer text beside the author's, after a 409 or a draft older than the file: merge, take theirs, or overwrite knowingly. */
import type { FileDoc } from '../api';
import { fmt, useI18n } from '../i18n';

export interface Conflict {
  theirs: FileDoc;
  /** The author's text when the conflict was found (the editor may hold more by now: resolving uses the editor's). */
  mine: string;
  /** The server text the author's is an edit of (null: that version is gone), for the three-way merge. */
  base: { version: number; content: string | null };
  /** Found on opening the file: the author's text came from this device's draft. */
  fromDraft: boolean;
}

export function ConflictPanel({
  conflict,
  onMerge,
  onTakeTheirs,
  onOverwrite,
}: {
  conflict: Conflict;
  onMerge: () => void;
  onTakeTheirs: () => void;
  onOverwrite: () => void;
}) {
  const { t } = useI18n();
  const body = conflict.fromDraft
    ? fmt(t.edConflictDraftBody, { base: conflict.base.version, v: conflict.theirs.version })
    : fmt(t.conflictBody, { v: conflict.theirs.version });
  return (
    <div className="conflict card" role="alertdialog" aria-labelledby="conflict-h" aria-describedby="conflict-b">
      <h3 id="conflict-h">{t.conflictTitle}</h3>
      <p id="conflict-b">{body}</p>
      <div className="columns">
        <div>
          <h4>
            {t.theirText} ({fmt(t.edVersionN, { v: conflict.theirs.version })})
          </h4>
          <pre className="doc" data-testid="their-text" tabIndex={0}>
            {conflict.theirs.content}
          </pre>
        </div>
        <div>
          <h4>{t.yourText}</h4>
          <pre className="doc" data-testid="your-text" tabIndex={0}>
            {conflict.mine}
          </pre>
        </div>
      </div>
      <div className="row">
        <button type="button" onClick={onMerge}>
          {t.merge}
        </button>
        <button type="button" className="secondary" onClick={onTakeTheirs}>
          {t.discardMine}
        </button>
        <button type="button" className="danger" onClick={onOverwrite}>
          {t.overwrite}
        </button>
      </div>
    </div>
  );
}

/** The `?` sheet: the editor's keyboard shortcuts, in a modal dialog (Esc or Close leaves it). */
import { type RefObject } from 'react';
import { useI18n } from '../i18n';

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const mod = mac ? '⌘' : 'Ctrl';

export function ShortcutsSheet({ dialog }: { dialog: RefObject<HTMLDialogElement | null> }) {
  const { t } = useI18n();
  const rows: [string[], string][] = [
    [[mod, 'S'], t.edKeySave],
    [[mod, 'F'], t.edKeyFind],
    [[mod, 'Shift', 'F'], t.edKeyFocus],
    [[mod, 'Z'], t.edKeyUndo],
    [[mod, 'Shift', 'Z'], t.edKeyRedo],
    [['Esc'], t.edKeyEscape],
    [['?'], t.edKeySheet],
    [[mod, '/'], t.edKeySheetInText],
  ];
  return (
    <dialog ref={dialog} className="shortcuts card" aria-labelledby="shortcuts-h">
      <h3 id="shortcuts-h">{t.edShortcuts}</h3>
      <table>
        <tbody>
          {rows.map(([keys, what]) => (
            <tr key={what}>
              <th scope="row">
                {keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && '+'}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">{t.edAutosaveNote}</p>
      <form method="dialog">
        <button type="submit">{t.close}</button>
      </form>
    </dialog>
  );
}

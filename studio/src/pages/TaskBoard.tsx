/** The project's task board (the planner keeps it through update_project), beside the chat. */
import { useI18n } from '../i18n';
import { useProject } from './Project';

export function TaskBoard() {
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

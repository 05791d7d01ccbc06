/**
 * A new file's order is the number of files already in its folder (create_file). On our
 * local server that count is one of a step's slowest reads: FerretDB v1 decodes every file
 * of the project, text and all, to count one folder's (accumulated bench: ~25 ms a call, on
 * the way from the model's answer to the next step). So the LLM step starts one read of every
 * folder's count as soon as the model begins a create_file call; it runs while the call's
 * arguments stream and the answer goes on record, and the call takes its folder's count from it.
 *
 * The count is as of the call's start instead of its run, a moment earlier; the order was
 * never reserved against a concurrent writer (another session's turn, the author's own
 * create) in either case. Within the step it is exact: it is taken once, so a step's second
 * create_file counts for itself and sees the file the first one made.
 */
import type { Models } from '../../db/models';
import { quiet } from '../../core/quiet';

/** Files per folder of a project (the root is null), trashed ones included as countDocuments counts them. */
export async function readSiblingCounts(models: Models, projectId: string): Promise<Map<string | null, number>> {
  // A file without parentId groups under null, as {parentId: null} matches it.
  const rows = await models.File.aggregate<{ _id: string | null; n: number }>([
    { $match: { projectId } },
    { $group: { _id: '$parentId', n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id === null ? null : String(r._id), r.n]));
}

/** The counts one step started early, for its first create_file. */
export class EarlySiblingCounts {
  private read: Promise<Map<string | null, number> | null> | null = null;
  private taken = false;

  constructor(
    private readonly models: Models,
    private readonly projectId: string,
  ) {}

  /** Starts the read (once). A failed read only means the call counts for itself. */
  start(): void {
    this.read ??= quiet(readSiblingCounts(this.models, this.projectId).catch(() => null));
  }

  /** The folder's count from the early read, or null: not started, taken already, or the read failed. */
  async take(parentId: string | null): Promise<number | null> {
    if (!this.read || this.taken) return null;
    this.taken = true;
    const counts = await this.read;
    return counts ? (counts.get(parentId) ?? 0) : null;
  }
}

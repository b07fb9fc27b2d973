/**
 * `/memories/progress.md` is the project's history: the agent may only add to its end (a new
 * dated session section, more lines in the last one). Rewriting what earlier sessions recorded,
 * or deleting or moving the file, is refused, so the log stays a trustworthy recovery point.
 */
import { memoryPathOf } from '../memoryFiles';
import type { ProposedChange, WriteGuard } from '../../memory/types';

const PATH = memoryPathOf('progress');

export function createProgressLogGuard(): WriteGuard {
  return { paths: [PATH], check: checkProgressLogChange };
}

export function checkProgressLogChange(change: ProposedChange): string | undefined {
  if (change.after === undefined) {
    return `${PATH} is the append-only progress log and cannot be deleted or moved. Add a new dated section at its end instead.`;
  }
  if (change.before === undefined || isAppend(change.before, change.after)) return undefined;
  return `The change was refused: ${PATH} is append-only and earlier entries must stay exactly as they are. Nothing was written. Add your update at the end of the file (for example with insert at the last line, or a new "## <date>" section).`;
}

/** True when `after` keeps `before` verbatim as its beginning; a missing final newline is not history. */
function isAppend(before: string, after: string): boolean {
  return after.startsWith(before.replace(/\r?\n$/, ''));
}

/** What Claude is told about a rewind (the chat prepends it to the next message). */
import { commitCount, type BranchPlan } from './branchPlan';
import { planSummary, type RewindPlan } from './rewindPlan';

/** What the user rewound: the files and memory, the conversation, or both (default both). */
export interface RewindScope {
  files?: boolean;
  conversation?: boolean;
  /** The branch was moved with the files. */
  branchMoved?: boolean;
}

/**
 * The note for Claude: the workspace (and/or the conversation) went back, so what it remembers
 * doing after that point is undone or to be disregarded; what happened to the commits it made.
 */
export function rewindNote(message: string, plan: Pick<RewindPlan, 'files' | 'memory' | 'git'>, scope: RewindScope = {}): string {
  const files = scope.files ?? true;
  const conversation = scope.conversation ?? true;
  const quoted = [...message.replace(/\s+/g, ' ').trim()];
  const shown = quoted.length > 120 ? `${quoted.slice(0, 119).join('')}…` : quoted.join('');
  if (!files) {
    return (
      `[Note from the editor: the user rewound the conversation to before their message "${shown}": treat what was said after it as not said (it is kept only for reference). ` +
      'Files and memory were NOT changed back: they are as they are now, with every change made after that point.]'
    );
  }
  const paths = plan.files.map((f) => f.path);
  const listed = paths.length === 0 ? '' : ` Files changed back: ${paths.slice(0, 20).join(', ')}${paths.length > 20 ? ` and ${paths.length - 20} more` : ''}.`;
  const after = conversation ? 'the conversation after it is kept only for reference' : 'the conversation goes on from here';
  return (
    `[Note from the editor: the user rewound the workspace and memory to how they were before their message "${shown}" ` +
    `(${planSummary(plan)}). Everything you did after that point (file edits, commands' effects, memory writes) is undone; ` +
    `${after}.${listed}${commitsNote(plan.git, scope.branchMoved === true)} Check files again before relying on what you saw earlier.]`
  );
}

/** What happened to the commits made since, for the note (empty when there were none). */
function commitsNote(git: BranchPlan | undefined, moved: boolean): string {
  if (git === undefined || git.total === 0) return '';
  const branch = git.branch ?? 'HEAD';
  const named = git.commits.slice(0, 5).map((c) => `${c.id} ${c.subject}`).join('; ');
  if (git.direction === 'forward') return moved ? ` The branch ${branch} moved forward again to the commit it was on then (${commitCount(git.total)} back on it: ${named}).` : '';
  if (moved) return ` The branch ${branch} was moved back to the commit it was on then: the ${commitCount(git.total)} made since (${named}) are off the branch (kept in the reflog).`;
  return ` The ${commitCount(git.total)} made since (${named}) are still on ${branch}: the rewound files now show as uncommitted changes against them.`;
}

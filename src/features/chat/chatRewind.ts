/**
 * "Rewind to here" on a user message: the preview as a quick pick — what the rewind can take back
 * (files and conversation, the same with the branch moved back, files only, the conversation
 * only), the commits made since, every file and memory file and what is left alone — then the
 * rewind (ChatController.rewind). Cancel is the first row, the one Enter picks: nothing
 * destructive is one key away. And "Undo Rewind" on the rewound message (a modal that says what
 * comes back).
 */
import * as vscode from 'vscode';
import { branchLine, commitCount, planSummary, type BranchPlan, type RewindPlan } from '../../core/checkpoints';
import { displayOf } from '../../core/memory/paths';
import { formatSize } from '../../core/memory/format';
import type { ChatController, RewindChoice } from './chatController';
import type { ChatPrompts } from './registerChat';

interface PreviewItem extends vscode.QuickPickItem {
  choice?: RewindChoice;
}

/** The preview; the choice picked, or undefined (Cancel, Escape). */
async function pickRewind(message: string, plan: RewindPlan): Promise<RewindChoice | undefined> {
  const changes = plan.files.length + plan.memory.length;
  const filesText = changes === 0 ? 'no file or memory changes since' : `${planSummary(plan)} change back`;
  const git = plan.git;
  const cancel: PreviewItem = { label: '$(close) Cancel', description: 'keep everything as it is' };
  const items: PreviewItem[] = [
    cancel,
    {
      label: '$(discard) Rewind files and conversation',
      description: filesText,
      detail: git && git.total > 0 && git.direction === 'back' ? `${branchLine(git, false)}.` : 'The later messages fold; your message goes back to the composer.',
      choice: { files: true, conversation: true },
    },
  ];
  if (git?.movable) {
    items.push({
      label: `$(git-commit) Rewind files and conversation, and move ${git.branch} ${git.direction === 'forward' ? 'forward' : 'back'}`,
      description: git.direction === 'forward' ? `${commitCount(git.total)} back on ${git.branch}` : `${commitCount(git.total)} leave${git.total === 1 ? 's' : ''} ${git.branch} (kept in the reflog)`,
      detail: `${git.branch} goes to ${git.to.slice(0, 7)}, where it was before this message.`,
      choice: { files: true, conversation: true, moveBranch: { from: git.from } },
    });
  }
  items.push(
    { label: '$(files) Rewind files only', description: filesText, detail: 'The conversation stays as it is.', choice: { files: true, conversation: false } },
    { label: '$(comment-discussion) Rewind the conversation only', description: 'files and memory stay as they are now', choice: { files: false, conversation: true } },
  );
  items.push(...commitItems(git));
  const files = plan.files.map((f) => ({ label: `${FILE_ICONS[f.change]} ${f.path}`, description: FILE_VERBS[f.change] }));
  if (files.length > 0) items.push({ label: 'Files', kind: vscode.QuickPickItemKind.Separator }, ...files);
  const memory = plan.memory.map((m) => ({ label: `${m.action === 'remove' ? '$(trash)' : m.action === 'restore' ? '$(history)' : '$(warning)'} ${displayOf(m.rel)}`, description: MEMORY_VERBS[m.action] }));
  if (memory.length > 0) items.push({ label: 'Memory', kind: vscode.QuickPickItemKind.Separator }, ...memory);
  const left = [
    ...plan.notRestored.map((f) => ({ label: `$(warning) ${f.path}`, description: `not restored: ${formatSize(f.size)}, over the checkpoint size limit` })),
    ...plan.leftIgnored.map((p) => ({ label: `$(eye-closed) ${p}`, description: 'not brought back: ignored by .gitignore now' })),
    // What a rewind never touches (the detail line of a row is cut at the picker's width).
    { label: '$(info) Ignored files, .git and unchanged untracked files', description: 'never touched by a rewind' },
    { label: '$(info) The state now is saved first', description: 'Undo Rewind on the message brings it back' },
  ];
  items.push({ label: 'Left as they are', kind: vscode.QuickPickItemKind.Separator }, ...left);
  const picked = await vscode.window.showQuickPick(items, {
    title: `Rewind to before "${shortText(message)}"?`,
    placeHolder: 'Choose what to take back (Enter on Cancel keeps everything)',
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  return picked?.choice;
}

/** The commits made since, under their own separator, with what the rewind does to them. */
function commitItems(git: BranchPlan | undefined): PreviewItem[] {
  if (git === undefined) return [];
  const where = git.branch ?? 'HEAD';
  const title = git.direction === 'forward' ? `${commitCount(git.total)} the branch no longer has` : `${commitCount(git.total)} since, on ${where}`;
  const items: PreviewItem[] = [{ label: title, kind: vscode.QuickPickItemKind.Separator }];
  const fate = git.direction === 'forward' ? 'back on the branch only if you move it' : git.movable ? 'stays unless you move the branch back' : `stays on ${where}`;
  for (const c of git.commits) items.push({ label: `$(git-commit) ${c.id} ${c.subject}`, description: fate });
  if (git.total > git.commits.length) items.push({ label: `$(ellipsis) ${git.total - git.commits.length} more`, description: fate });
  if (!git.movable && git.reason !== undefined) items.push({ label: `$(info) ${where} is not moved`, description: git.reason });
  return items;
}

const FILE_ICONS = { restore: '$(history)', remove: '$(trash)', 'bring back': '$(reply)' } as const;
const FILE_VERBS = { restore: 'changed back', remove: 'removed (created since)', 'bring back': 'brought back (deleted since)' } as const;
const MEMORY_VERBS = { restore: 'memory: changed back', remove: 'memory: removed (created since)', unavailable: 'memory: NOT restored (no longer in history)' } as const;

export async function rewindFromCard(controller: ChatController, log: { info(message: string): void }, entryId: string): Promise<void> {
  const preview = await controller.previewRewind(entryId);
  log.info(`rewind preview: ${preview.ok ? `${planSummary(preview.plan)}${preview.plan.git ? `; ${commitCount(preview.plan.git.total)} on the branch since, ${preview.plan.git.movable ? 'movable' : 'not movable'}` : ''}` : `refused (${preview.reason})`}`);
  if (!preview.ok) {
    void vscode.window.showInformationMessage(`Cannot rewind: ${preview.reason}`);
    return;
  }
  const choice = await pickRewind(preview.message, preview.plan);
  log.info(`rewind ${choice ? `confirmed: ${choice.files ? 'files' : ''}${choice.files && choice.conversation ? ' and ' : ''}${choice.conversation ? 'conversation' : ''}${choice.moveBranch ? ', moving the branch' : ''}` : 'not confirmed'}`);
  if (!choice) return;
  const done = await controller.rewind(entryId, choice);
  if (!done.ok) {
    void vscode.window.showWarningMessage(`Not rewound: ${done.reason}`);
    return;
  }
  if (done.result?.branchError !== undefined) void vscode.window.showWarningMessage(`Rewound, but the branch was not moved: ${done.result.branchError}`);
  const what = choice.files ? `Rewound ${planSummary(done.plan)}${done.result?.branchMoved ? ` and moved ${done.result.git?.branch ?? 'the branch'}` : ''}` : 'Rewound the conversation';
  vscode.window.setStatusBarMessage(`$(discard) ${what}; Claude is told with your next message`, 8_000);
}

/** "Undo Rewind" on a rewound message: asks, saying what comes back, then undoes it. */
export async function undoRewindFromCard(controller: ChatController, prompts: Pick<ChatPrompts, 'confirm'>, log: { info(message: string): void }, entryId: string): Promise<void> {
  const preview = await controller.previewUndoRewind(entryId);
  if (!preview.ok) {
    void vscode.window.showInformationMessage(`Cannot undo the rewind: ${preview.reason}`);
    return;
  }
  const back: string[] = [];
  if (preview.plan !== undefined) back.push(preview.plan.files.length + preview.plan.memory.length === 0 ? 'No file or memory changes.' : `${planSummary(preview.plan)} come back as they were just before the rewind.`);
  if (preview.undo.branch && preview.plan?.git !== undefined) back.push(`${branchLine(preview.plan.git, true)}.`);
  if (preview.undo.conversation) back.push('The folded messages show again.');
  let ok = false;
  try {
    ok = await prompts.confirm(`Undo the rewind to before "${shortText(preview.message)}"?`, back.join(' '), 'Undo Rewind');
  } catch {
    ok = false;
  }
  log.info(`undo of a rewind: ${ok ? 'confirmed' : 'not confirmed'}`);
  if (!ok) return;
  const done = await controller.undoRewind(entryId);
  if (!done.ok) {
    void vscode.window.showWarningMessage(`Not undone: ${done.reason}`);
    return;
  }
  const what = [preview.plan !== undefined ? 'files and memory are back as they were before it' : undefined, preview.undo.conversation ? 'the folded messages show again' : undefined].filter(Boolean).join('; ');
  vscode.window.setStatusBarMessage(`$(redo) Rewind undone: ${what}`, 8_000);
}

function shortText(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : chars.join('');
}

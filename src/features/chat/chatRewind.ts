/**
 * "Rewind to here" on a user message: the preview as a quick pick — what the rewind can take back
 * (files and conversation, the same with the branch moved back, files only, the conversation
 * only), the commits made since, every file and memory file and what is left alone — then the
 * rewind (ChatController.rewind). Cancel is the first row, the one Enter picks: nothing
 * destructive is one key away. And "Undo Rewind" on the rewound message, asked the same way.
 */
import * as vscode from 'vscode';
import { branchLine, commitCount, planSummary, type BranchPlan, type RewindPlan } from '../../core/checkpoints';
import { displayOf } from '../../core/memory/paths';
import { formatSize } from '../../core/memory/format';
import type { ChatController, RewindChoice } from './chatController';

interface PreviewItem extends vscode.QuickPickItem {
  choice?: RewindChoice;
}

/** The preview; the choice picked, or undefined (Cancel, Escape). */
async function pickRewind(message: string, plan: RewindPlan, notCovered: { paths: string[]; total: number } | undefined): Promise<RewindChoice | undefined> {
  const changes = plan.files.length + plan.memory.length;
  const filesText = changes === 0 ? 'no file or memory changes since' : `${planSummary(plan)} ${changes === 1 ? 'changes' : 'change'} back`;
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
    // Short label and description: the picker cuts a long row at its width.
    const one = git.total === 1;
    items.push({
      label: `$(git-commit) Rewind files and conversation, move ${git.branch} ${git.direction === 'forward' ? 'forward' : 'back'}`,
      description: git.direction === 'forward' ? `${commitCount(git.total)} back on it` : `${commitCount(git.total)} leave${one ? 's' : ''} it`,
      detail: `${git.branch} goes to ${git.to.slice(0, 7)}, where it was before this message${git.direction === 'forward' ? '' : `; the reflog keeps ${one ? 'the commit' : 'the commits'}`}.`,
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
    ...(notCovered?.paths ?? []).map((p) => ({ label: `$(eye-closed) ${p}`, description: 'changed since, but ignored: not rewound' })),
    ...(notCovered !== undefined && notCovered.total > notCovered.paths.length ? [{ label: `$(eye-closed) ${notCovered.total - notCovered.paths.length} more ignored files`, description: 'changed since: not rewound' }] : []),
    // What a rewind never touches (the detail line of a row is cut at the picker's width).
    { label: '$(info) Ignored files and .git', description: 'never touched' },
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
  const fate = git.direction === 'forward' ? `back only if ${where} moves` : git.movable ? `stays unless ${where} moves back` : `stays on ${where}`;
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
  const choice = await pickRewind(preview.message, preview.plan, preview.notCovered);
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

/**
 * "Undo Rewind" on a rewound message: a quick pick like the preview (Cancel first) saying what
 * comes back, then the undo. Undone, the message offers "Rewind to here" again, so the undo is
 * one rewind away from being undone in turn.
 */
export async function undoRewindFromCard(controller: ChatController, log: { info(message: string): void }, entryId: string): Promise<void> {
  const preview = await controller.previewUndoRewind(entryId);
  if (!preview.ok) {
    void vscode.window.showInformationMessage(`Cannot undo the rewind: ${preview.reason}`);
    return;
  }
  const plan = preview.plan;
  const back: string[] = [];
  const count = plan === undefined ? 0 : plan.files.length + plan.memory.length;
  if (plan !== undefined) back.push(count === 0 ? 'no file or memory changes' : `${planSummary(plan)} ${count === 1 ? 'comes' : 'come'} back`);
  if (preview.undo.conversation) back.push('the folded messages show again');
  const items: PreviewItem[] = [
    { label: '$(close) Cancel', description: 'keep the rewind' },
    {
      label: '$(redo) Undo Rewind',
      description: back.join('; '),
      ...(preview.undo.branch && plan?.git !== undefined ? { detail: `${branchLine(plan.git, true)}.` } : {}),
      choice: { files: plan !== undefined, conversation: preview.undo.conversation === true },
    },
  ];
  if (plan !== undefined) {
    const files = [...plan.files.map((f) => ({ label: `${FILE_ICONS[f.change]} ${f.path}`, description: UNDO_VERBS[f.change] })), ...plan.memory.map((m) => ({ label: `$(history) ${displayOf(m.rel)}`, description: 'memory: as it was before the rewind' }))];
    if (files.length > 0) items.push({ label: 'Comes back as it was just before the rewind', kind: vscode.QuickPickItemKind.Separator }, ...files);
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: `Undo the rewind to before "${shortText(preview.message)}"?`,
    placeHolder: 'Enter on Cancel keeps the rewind',
    ignoreFocusOut: true,
  });
  log.info(`undo of a rewind: ${picked?.choice ? 'confirmed' : 'not confirmed'}`);
  if (!picked?.choice) return;
  const done = await controller.undoRewind(entryId);
  if (!done.ok) {
    void vscode.window.showWarningMessage(`Not undone: ${done.reason}`);
    return;
  }
  vscode.window.setStatusBarMessage(`$(redo) Rewind undone: ${back.join('; ')}${done.result?.branchMoved ? `; ${done.result.git?.branch ?? 'the branch'} moved forward again` : ''}`, 8_000);
}

const UNDO_VERBS = { restore: 'as it was before the rewind', remove: 'removed again', 'bring back': 'comes back' } as const;

function shortText(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : chars.join('');
}

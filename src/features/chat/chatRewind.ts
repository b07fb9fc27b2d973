/**
 * "Rewind to here" on a user message: the preview (what goes back, what is removed, what comes
 * back, what cannot be restored) as a quick pick listing every file — a long list scrolls and
 * filters, which a modal's text cannot — with Rewind as its first item; then the rewind
 * (ChatController.rewind).
 */
import * as vscode from 'vscode';
import { planSummary, type RewindPlan } from '../../core/checkpoints';
import { displayOf } from '../../core/memory/paths';
import { formatSize } from '../../core/memory/format';
import type { ChatController } from './chatController';

interface PreviewItem extends vscode.QuickPickItem {
  rewind?: true;
}

/** The preview; true only when the user picked Rewind. */
async function pickRewind(message: string, plan: RewindPlan): Promise<boolean> {
  const items: PreviewItem[] = [
    {
      label: '$(discard) Rewind',
      description: lines(plan).length === 0 ? 'no file or memory changes since' : `${planSummary(plan)} change back`,
      detail: 'The state now is saved as a checkpoint first. Ignored files, .git and untracked files that did not change are not touched.',
      rewind: true,
    },
    { label: '$(close) Cancel' },
  ];
  const files = plan.files.map((f) => ({ label: `${FILE_ICONS[f.change]} ${f.path}`, description: FILE_VERBS[f.change] }));
  if (files.length > 0) items.push({ label: 'Files', kind: vscode.QuickPickItemKind.Separator }, ...files);
  const memory = plan.memory.map((m) => ({ label: `${m.action === 'remove' ? '$(trash)' : m.action === 'restore' ? '$(history)' : '$(warning)'} ${displayOf(m.rel)}`, description: MEMORY_VERBS[m.action] }));
  if (memory.length > 0) items.push({ label: 'Memory', kind: vscode.QuickPickItemKind.Separator }, ...memory);
  const left = [
    ...plan.notRestored.map((f) => ({ label: `$(warning) ${f.path}`, description: `not restored: ${formatSize(f.size)}, over the checkpoint size limit` })),
    ...plan.leftIgnored.map((p) => ({ label: `$(eye-closed) ${p}`, description: 'not brought back: ignored by .gitignore now' })),
  ];
  if (left.length > 0) items.push({ label: 'Left as they are', kind: vscode.QuickPickItemKind.Separator }, ...left);
  const picked = await vscode.window.showQuickPick(items, {
    title: `Rewind to before "${shortText(message)}"?`,
    placeHolder: 'Rewind brings these back to how they were before this message',
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  return picked?.rewind === true;
}

const FILE_ICONS = { restore: '$(history)', remove: '$(trash)', 'bring back': '$(reply)' } as const;
const FILE_VERBS = { restore: 'changed back', remove: 'removed (created since)', 'bring back': 'brought back (deleted since)' } as const;
const MEMORY_VERBS = { restore: 'memory: changed back', remove: 'memory: removed (created since)', unavailable: 'memory: NOT restored (no longer in history)' } as const;

function lines(plan: RewindPlan): string[] {
  return [...plan.files.map((f) => f.path), ...plan.memory.map((m) => m.rel)];
}

export async function rewindFromCard(controller: ChatController, log: { info(message: string): void }, entryId: string): Promise<void> {
  const preview = await controller.previewRewind(entryId);
  log.info(`rewind preview: ${preview.ok ? planSummary(preview.plan) : `refused (${preview.reason})`}`);
  if (!preview.ok) {
    void vscode.window.showInformationMessage(`Cannot rewind: ${preview.reason}`);
    return;
  }
  const confirmed = await pickRewind(preview.message, preview.plan);
  log.info(`rewind ${confirmed ? 'confirmed' : 'not confirmed'}`);
  if (!confirmed) return;
  const done = await controller.rewind(entryId);
  if (!done.ok) {
    void vscode.window.showWarningMessage(`Not rewound: ${done.reason}`);
    return;
  }
  vscode.window.setStatusBarMessage(`$(discard) Rewound ${planSummary(done.plan)}; Claude is told with your next message`, 8_000);
}

function shortText(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : chars.join('');
}

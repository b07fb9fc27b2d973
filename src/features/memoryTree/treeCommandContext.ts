import * as vscode from 'vscode';
import { isMemoryError, userFacingReason } from '../../core/memory/errors';
import type { ExtensionServices } from '../../platform/services';
import type { MemoryNode } from './memoryTreeNodes';
import type { MemoryTree } from './registerMemoryTree';
import type { UserPrompts } from '../../ui/prompts';

/** What the Memory tree's commands need. */
export interface TreeCommandContext {
  readonly services: ExtensionServices;
  readonly tree: MemoryTree;
  readonly prompts: UserPrompts;
}

/** The node a command acts on: the menu's argument, else the tree's selection (keybindings, title bar). */
export function targetNode(ctx: TreeCommandContext, arg: unknown): MemoryNode | undefined {
  if (isMemoryNode(arg)) return arg;
  const selected = ctx.tree.view.selection[0];
  // Recently Deleted and its files are no entries on disk: the file commands never act on them.
  return selected && isMemoryNode(selected) ? selected : undefined;
}

function isMemoryNode(value: unknown): value is MemoryNode {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<MemoryNode>;
  return (v.kind === 'root' || v.kind === 'folder' || v.kind === 'file') && typeof v.rel === 'string' && v.store !== undefined && v.uri !== undefined;
}

/** Shows a failed file operation without a stack trace; the log keeps the details. */
export function reportFailure(ctx: TreeCommandContext, what: string, error: unknown): void {
  ctx.services.logger('tree').warn(`${what} failed: ${String(error)}`);
  void vscode.window.showErrorMessage(`${what} failed: ${friendlyReason(error)}`);
}

function friendlyReason(error: unknown): string {
  // The engine's sentences (symbolic link, private folder, busy store) are already plain.
  if (isMemoryError(error)) return userFacingReason(error);
  const code = (error as { code?: unknown })?.code;
  switch (code) {
    case 'FileNotFound':
      return 'it no longer exists.';
    case 'FileExists':
      return 'something with that name already exists.';
    case 'NoPermissions':
      return 'permission denied.';
    case 'Unavailable':
      return 'the file system is unavailable.';
    default:
      return 'see the Claude Memory log for details.';
  }
}

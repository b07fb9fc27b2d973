import * as vscode from 'vscode';
import { displayOf } from '../../core/memory/paths';
import { targetNode, type TreeCommandContext } from './treeCommandContext';

/** Copies the `/memories/...` path, the name Claude knows the entry by. Resolves to the copied text. */
export async function copyMemoryPath(ctx: TreeCommandContext, arg: unknown): Promise<string | undefined> {
  const node = targetNode(ctx, arg);
  if (!node) return undefined;
  const text = displayOf(node.rel);
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`Copied ${text}`, 3000);
  return text;
}

export async function revealInExplorer(ctx: TreeCommandContext, arg: unknown): Promise<void> {
  const node = targetNode(ctx, arg);
  if (node) await vscode.commands.executeCommand('revealInExplorer', node.uri);
}

export async function openFile(ctx: TreeCommandContext, arg: unknown): Promise<void> {
  const node = targetNode(ctx, arg);
  if (node?.kind === 'file') await vscode.commands.executeCommand('vscode.open', node.uri);
}

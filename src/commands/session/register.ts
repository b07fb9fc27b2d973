/**
 * The multi-session coding pattern in the extension: Initialize Project Memory, Resume Session
 * and the Features view. Called once from the composition root (src/extension.ts).
 */
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { registerFeaturesView } from '../../views/featuresView';
import { initializeProjectMemory, type InitializeArgs } from './initialize';
import { resumeSession, type ResumeArgs } from './resume';

export function registerMultiSession(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const log = services.logger('session');
  // Commands run from the palette, a tree item or another command; a failure is shown once, not thrown into the void.
  const guarded = <A, R>(what: string, run: (args: A | undefined) => Promise<R>) => async (args?: A) => {
    try {
      return await run(args);
    } catch (e) {
      log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };
  context.subscriptions.push(
    registerFeaturesView(services),
    vscode.commands.registerCommand(
      'claudeMemory.initialize',
      guarded('Initializing project memory', (args: unknown) => initializeProjectMemory(context.extensionUri, services, commandArgs(args))),
    ),
    vscode.commands.registerCommand(
      'claudeMemory.resume',
      guarded('Resuming the session', (args: unknown) => resumeSession(context.extensionUri, services, commandArgs(args))),
    ),
  );
}

/**
 * Callers may pass anything as the first argument (a Uri from a menu, a tree node): keep only
 * the known options with the right types.
 */
function commandArgs(raw: unknown): InitializeArgs & ResumeArgs {
  const o = raw && typeof raw === 'object' && !(raw instanceof vscode.Uri) ? (raw as Record<string, unknown>) : {};
  return {
    folder: o.folder instanceof vscode.Uri ? o.folder : undefined,
    goal: typeof o.goal === 'string' ? o.goal : undefined,
    draftWithClaude: typeof o.draftWithClaude === 'boolean' ? o.draftWithClaude : undefined,
  };
}

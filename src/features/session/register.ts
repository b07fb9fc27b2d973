/**
 * The multi-session coding pattern in the extension: Initialize Project Memory, Resume Session
 * and the Features view. Called once from the composition root (src/extension.ts).
 */
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { registerFeaturesView, type FeaturesViewApi } from './featuresView';
import { COMMANDS } from '../../platform/ids';
import { initializeProjectMemory, type InitializeArgs, type InitializeChat } from './initialize';
import { openFeature } from './openFeature';
import { resumeSession, type ResumeArgs } from './resume';

/** What the extension's API exposes of the multi-session feature (tests drive the view through it). */
export interface MultiSessionApi {
  readonly features: FeaturesViewApi;
}

/** `chat`: where Initialize puts the next steps after Claude's draft (the chat feature's API). */
export function registerMultiSession(context: vscode.ExtensionContext, services: ExtensionServices, chat?: InitializeChat): MultiSessionApi {
  const log = services.logger('session');
  // Commands run from the palette, a tree item or another command; a failure is shown once, not thrown into the void.
  const guarded = <R>(what: string, run: (args: unknown, more?: unknown) => Promise<R>) => async (args?: unknown, more?: unknown) => {
    try {
      return await run(args, more);
    } catch (e) {
      log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };
  const features = registerFeaturesView(services);
  context.subscriptions.push(
    features.disposable,
    vscode.commands.registerCommand(
      COMMANDS.initialize,
      guarded('Initializing project memory', (args) => initializeProjectMemory(context.extensionUri, services, commandArgs(args), chat)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.resume,
      guarded('Resuming the session', (args) => resumeSession(context.extensionUri, services, commandArgs(args))),
    ),
    vscode.commands.registerCommand(
      COMMANDS.openFeature,
      guarded('Opening the feature', (folder, id?: unknown) => openFeature(services, folder, id)),
    ),
  );
  return { features: features.api };
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

/**
 * "Claude Memory: Resume Session": sends the session routine (media/templates/session-routine.md,
 * with today's date and the next failing feature filled in) to Claude in the chat view, which
 * then works in that folder's memory.
 */
import * as vscode from 'vscode';
import { renderSessionRoutine, sessionRoutineLabel } from '../../core/session/sessionRoutine';
import type { ExtensionServices } from '../../platform/services';
import { COMMANDS } from '../../platform/ids';
import type { AskArgs } from '../chat';
import { readSessionFile, sessionFileExists } from '../../platform/sessionFiles';
import { pickStore } from './pickStore';
import { readTemplate } from './templateFiles';

/** A `.git` folder or file (worktrees, submodules) at the folder's top. */
async function isGitRepository(folder: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, '.git'));
    return true;
  } catch {
    return false;
  }
}

export interface ResumeArgs {
  folder?: vscode.Uri;
}

/** Resolves to the message that was sent, or undefined when nothing was sent. */
export async function resumeSession(extensionUri: vscode.Uri, services: ExtensionServices, args: ResumeArgs = {}): Promise<string | undefined> {
  if (!services.trust.requireTrust('Resuming a session')) return undefined;
  const store = await pickStore(services, args.folder, 'Resume the session of which folder?');
  if (!store) return undefined;
  if (!(await sessionFileExists(store, 'progress')) && !(await sessionFileExists(store, 'features'))) {
    // Not awaited: nothing is sent either way, and the offer may be answered later.
    void vscode.window
      .showInformationMessage(`"${store.folder.name}" has no project memory yet (progress.md, features.json).`, 'Initialize Project Memory')
      .then((choice) => choice && vscode.commands.executeCommand(COMMANDS.initialize, { folder: store.folder.uri }));
    return undefined;
  }
  const featuresText = await readSessionFile(store, 'features');
  const message = renderSessionRoutine({
    template: await readTemplate(extensionUri, 'session-routine.md'),
    now: new Date(),
    featuresText,
    gitCommit: services.settings.current.gitCommit && (await isGitRepository(store.folder.uri)),
  });
  services.logger('resume').info(`resuming the session of folder "${store.folder.name}"`);
  // A fresh conversation in this folder's memory: the memory carries the state between sessions
  // (the earlier conversation is set aside, not lost). The routine shows as a chip.
  await vscode.commands.executeCommand(COMMANDS.ask, {
    prompt: message,
    folder: store.folder.uri,
    label: sessionRoutineLabel(featuresText),
    fresh: true,
    resume: true,
  } satisfies AskArgs);
  return message;
}

/**
 * "Claude Memory: Resume Session": sends the session routine (media/templates/session-routine.md,
 * with today's date and the next failing feature filled in) to Claude in the chat view, which
 * then works in that folder's memory.
 */
import * as vscode from 'vscode';
import { renderSessionRoutine } from '../../core/session/sessionRoutine';
import type { ExtensionServices } from '../../platform/services';
import { COMMANDS } from '../../platform/ids';
import type { AskArgs } from '../ask';
import { readSessionFile, sessionFileExists } from '../../platform/sessionFiles';
import { pickStore } from './pickStore';
import { readTemplate } from './templateFiles';

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
  const message = renderSessionRoutine({
    template: await readTemplate(extensionUri, 'session-routine.md'),
    now: new Date(),
    featuresText: await readSessionFile(store, 'features'),
  });
  services.logger('resume').info(`resuming the session of folder "${store.folder.name}"`);
  // The chat switches to this folder's memory (a new session if it was using another folder).
  await vscode.commands.executeCommand(COMMANDS.ask, { prompt: message, folder: store.folder.uri } satisfies AskArgs);
  return message;
}

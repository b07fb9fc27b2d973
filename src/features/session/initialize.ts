/**
 * "Claude Memory: Initialize Project Memory": the initializer session of the multi-session
 * pattern. Writes progress.md, features.json and startup.md into one folder's memory store and,
 * if the user wants, lets Claude draft the feature list before anything else happens.
 */
import * as vscode from 'vscode';
import { buildInitialMemory } from '../../core/session/initialMemory';
import { SESSION_FILES, type SessionFileKey } from '../../core/session/memoryFiles';
import { draftNextSteps, reportDraft, type DraftReport } from '../../core/session/draftReport';
import { isoDate, quoteBlock, renderTemplate } from '../../core/session/templates';
import type { MemoryStore } from '../../platform/memoryStores';
import type { ExtensionServices } from '../../platform/services';
import { COMMANDS, focusViewCommand, VIEWS } from '../../platform/ids';
import type { AskArgs, ChatApi, ChatSendResult, FollowUpAction } from '../chat';
import { askProjectGoal } from './goalInput';
import { openSessionFile, readSessionFile, sessionFileExists } from '../../platform/sessionFiles';
import { pickStore } from './pickStore';
import { readTemplate } from './templateFiles';
import { readWorkspaceRootFiles } from './workspaceFiles';

const FEATURES_FOCUS_COMMAND = focusViewCommand(VIEWS.features);

/**
 * Optional answers, for callers that already know them (tests, other commands). Each one given
 * skips its question; the rest of the flow is the same.
 */
export interface InitializeArgs {
  folder?: vscode.Uri;
  goal?: string;
  draftWithClaude?: boolean;
}

/** What Initialize needs of the chat: the buttons under the draft's last message. */
export type InitializeChat = Pick<ChatApi, 'addFollowUps'>;

export interface InitializeResult {
  folder: vscode.Uri;
  written: SessionFileKey[];
  /** What Claude's draft changed, when the user asked for one. */
  draft?: DraftReport;
}

export async function initializeProjectMemory(
  extensionUri: vscode.Uri,
  services: ExtensionServices,
  args: InitializeArgs = {},
  chat?: InitializeChat,
): Promise<InitializeResult | undefined> {
  const log = services.logger('initialize');
  if (!services.trust.requireTrust('Initializing project memory')) return undefined;
  const store = await pickStore(services, args.folder, 'Initialize project memory in which folder?');
  if (!store) return undefined;

  const existing = await existingSessionFiles(store);
  if (existing.length > 0) {
    offerExistingMemory(store, existing);
    return undefined;
  }

  const goal = args.goal?.trim() || (await askProjectGoal(store.folder.name));
  if (!goal) return undefined;
  const draftWithClaude = args.draftWithClaude ?? (await askDraftWithClaude());
  if (draftWithClaude === undefined) return undefined;

  const [progressTemplate, startupTemplate, workspaceFiles] = await Promise.all([
    readTemplate(extensionUri, 'progress.md'),
    readTemplate(extensionUri, 'startup.md'),
    readWorkspaceRootFiles(store.folder.uri),
  ]);
  const files = buildInitialMemory({
    goal,
    now: new Date(),
    workspaceFiles,
    draftWithClaude,
    templates: { progress: progressTemplate, startup: startupTemplate },
  });

  await store.engine.ensureRoot();
  const written: SessionFileKey[] = [];
  for (const file of files) {
    // Never overwrite memory that appeared meanwhile: checked right before each write, and the
    // atomic write itself refuses an existing target.
    const appeared = (await sessionFileExists(store, file.key)) || !(await createAtomically(store, file.path, file.text));
    if (appeared) {
      void vscode.window.showWarningMessage(`${file.path} appeared while initializing; it was left as it is.`);
      continue;
    }
    written.push(file.key);
  }
  log.info(`initialized ${written.map((k) => SESSION_FILES[k]).join(', ')} in folder "${store.folder.name}"`);

  const draft = draftWithClaude ? await draftFeaturesWithClaude(extensionUri, goal, store) : undefined;
  // The draft ran in the chat: the chat stays in front, Claude's summary readable, and its last
  // message carries the next steps (draftFollowUps). Unless the chat moved on meanwhile.
  if (draft) {
    const next = draftFollowUps(draft);
    if (chat?.addFollowUps(store.folder.uri, next.actions, next.note, next.onAnswer)) {
      log.info(`the draft's next steps are on its last message in the chat: ${next.actions.join(', ')}`);
      return { folder: store.folder.uri, written, draft };
    }
  }
  await vscode.commands.executeCommand(FEATURES_FOCUS_COMMAND);
  await openSessionFile(store, 'features');
  if (!draft) {
    void vscode.window.showInformationMessage('Project memory initialized. Review the feature checklist (features.json), then run "Resume Session" to start working.');
  } else if (draft.finished && draft.added > 0) {
    void vscode.window.showInformationMessage(`Project memory initialized. ${draft.message} Review features.json, then run "Resume Session" to start working.`);
  } else {
    void vscode.window.showWarningMessage(`Project memory initialized. ${draft.message} Add features to features.json, or ask Claude in the chat to draft them.`);
  }
  return { folder: store.folder.uri, written, draft };
}

/** The buttons under the draft's last message (draftNextSteps says which, and the line's words). */
function draftFollowUps(draft: DraftReport): { actions: FollowUpAction[]; note: string; onAnswer: boolean } {
  const next = draftNextSteps(draft);
  return { actions: next.resume ? ['reviewFeatures', 'resume'] : ['reviewFeatures'], note: next.note, onAnswer: next.resume };
}

async function existingSessionFiles(store: MemoryStore): Promise<SessionFileKey[]> {
  const keys = Object.keys(SESSION_FILES) as SessionFileKey[];
  const exists = await Promise.all(keys.map((k) => sessionFileExists(store, k)));
  return keys.filter((_, i) => exists[i]);
}

/** Not awaited: the command is over (nothing was written) whether or not the user answers. */
function offerExistingMemory(store: MemoryStore, existing: SessionFileKey[]): void {
  const names = existing.map((k) => SESSION_FILES[k]).join(', ');
  void vscode.window
    .showWarningMessage(`Project memory already exists in "${store.folder.name}" (${names}); it was not overwritten.`, 'Open It', 'Resume Session')
    .then(async (choice) => {
      if (choice === 'Open It') {
        await vscode.commands.executeCommand(FEATURES_FOCUS_COMMAND);
        await openSessionFile(store, existing.includes('progress') ? 'progress' : existing[0]);
      } else if (choice === 'Resume Session') {
        await vscode.commands.executeCommand(COMMANDS.resume, { folder: store.folder.uri });
      }
    });
}

async function askDraftWithClaude(): Promise<boolean | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(sparkle) Initialize and let Claude draft the feature list', detail: 'Starts an initializer conversation in the chat: Claude explores the goal and appends features to features.json.', draft: true },
      { label: '$(checklist) Initialize only', detail: 'No API call: the goal\'s list items, or what it enumerates, become the first features; you edit the rest.', draft: false },
    ],
    { title: 'Initialize Project Memory', placeHolder: 'Draft the feature checklist with Claude?', ignoreFocusOut: true },
  );
  return picked?.draft;
}

/** Runs the initializer conversation in the chat and reports what it changed in features.json. */
async function draftFeaturesWithClaude(extensionUri: vscode.Uri, goal: string, store: MemoryStore): Promise<DraftReport> {
  const template = await readTemplate(extensionUri, 'initializer-prompt.md');
  const prompt = renderTemplate(template, { date: isoDate(new Date()), goal: quoteBlock(goal) });
  const before = await readSessionFile(store, 'features');
  const result = await vscode.commands.executeCommand<ChatSendResult | undefined>(COMMANDS.ask, {
    prompt,
    folder: store.folder.uri,
    label: 'Initialize Project Memory · draft the feature list',
  } satisfies AskArgs);
  const after = await readSessionFile(store, 'features');
  return reportDraft(before, after, result ?? { started: false, reason: 'the chat did not take the prompt.' });
}

/** A new file through the engine's writer (its queue and store lock, never replacing); false when something is there. */
function createAtomically(store: MemoryStore, path: string, text: string): Promise<boolean> {
  return store.engine.createFile(path, new TextEncoder().encode(text));
}

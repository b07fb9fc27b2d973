/**
 * "Claude Memory: Ask Claude…": asks for a question (or takes it as the argument, for other
 * features: `executeCommand('claudeMemory.ask', prompt)` or `{ prompt, folder }`), shows the chat
 * and sends it there. With a folder, the chat first switches to that folder's memory (a new
 * session when it was using another one). Resolves when the answer is complete, with the send's
 * result (undefined when nothing was asked).
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import { MAX_PROMPT_CHARS } from './shared/protocol';
import type { ChatSendResult } from './chatController';
import type { ChatFeature } from './registerChat';

/** The object form of the command's argument. */
export interface AskArgs {
  prompt: string;
  /** A workspace folder's Uri: the chat works in its memory from now on. */
  folder?: vscode.Uri;
  /** A built-in prompt's chip text: the chat shows it instead of the prompt (which stays one click away). */
  label?: string;
  /** Set the current conversation aside and start a fresh one (New Chat) before sending. */
  fresh?: boolean;
  /** A Resume session's routine: Claude is reminded once to append its progress.md entry before it stops. */
  resume?: boolean;
}

export function registerAskCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.ask, (argument?: unknown) => ask(chat, argument));
}

async function ask(chat: ChatFeature, argument: unknown): Promise<ChatSendResult | undefined> {
  // Menus pass their own arguments (tree items); only a string or an AskArgs is a prompt.
  const given = askArgsOf(argument);
  const prompt = given ? given.prompt : await askForPrompt();
  if (prompt === undefined || prompt.trim() === '') return undefined;
  if (prompt.length > MAX_PROMPT_CHARS) {
    void vscode.window.showWarningMessage(`The question is too long (over ${MAX_PROMPT_CHARS} characters).`);
    return undefined;
  }
  if (given?.folder) {
    const switched = chat.controller.useFolder(given.folder);
    if (!switched.ok) {
      void vscode.window.showWarningMessage(switched.reason);
      return { started: false, reason: switched.reason };
    }
  }
  await chat.reveal();
  const result = await chat.controller.send(prompt, { label: given?.label, fresh: given?.fresh, resume: given?.resume });
  // A message waiting for a key is on screen with the key prompt: no second message needed.
  if (!result.started && !result.pending) void vscode.window.showWarningMessage(result.reason);
  return result;
}

function askArgsOf(argument: unknown): AskArgs | undefined {
  if (typeof argument === 'string') return { prompt: argument };
  if (typeof argument !== 'object' || argument === null) return undefined;
  const { prompt, folder, label, fresh, resume } = argument as Record<string, unknown>;
  if (typeof prompt !== 'string') return undefined;
  return {
    prompt,
    folder: folder instanceof vscode.Uri ? folder : undefined,
    label: typeof label === 'string' && label.trim() !== '' ? label : undefined,
    fresh: fresh === true,
    resume: resume === true,
  };
}

function askForPrompt(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Ask Claude',
    prompt: 'Claude answers in the Chat view and keeps notes in this workspace\'s memory.',
    placeHolder: 'What should Claude do or remember?',
    ignoreFocusOut: true,
    validateInput: (value) => (value.length > MAX_PROMPT_CHARS ? `At most ${MAX_PROMPT_CHARS} characters.` : undefined),
  });
}

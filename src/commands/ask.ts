/**
 * "Claude Memory: Ask Claude…": asks for a question (or takes it as the argument, for other
 * features: `executeCommand('claudeMemory.ask', prompt)`), shows the chat and sends it there.
 * Resolves when the answer is complete, with the send's result (undefined when nothing was asked).
 */
import * as vscode from 'vscode';
import { MAX_PROMPT_CHARS } from '../webviews/protocol';
import type { ChatSendResult } from '../webviews/chatController';
import type { ChatFeature } from '../webviews/registerChat';

export const ASK_COMMAND = 'claudeMemory.ask';

export function registerAskCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(ASK_COMMAND, (prompt?: unknown) => ask(chat, prompt));
}

async function ask(chat: ChatFeature, argument: unknown): Promise<ChatSendResult | undefined> {
  // Menus pass their own arguments (tree items); only a string is a prompt.
  const prompt = typeof argument === 'string' ? argument : await askForPrompt();
  if (prompt === undefined || prompt.trim() === '') return undefined;
  if (prompt.length > MAX_PROMPT_CHARS) {
    void vscode.window.showWarningMessage(`The question is too long (over ${MAX_PROMPT_CHARS} characters).`);
    return undefined;
  }
  await chat.reveal();
  const result = await chat.controller.send(prompt);
  if (!result.started) void vscode.window.showWarningMessage(result.reason);
  return result;
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

/**
 * An attachment as Claude reads it: at send time each chip becomes a fenced block in the prompt,
 * read from the open document when there is one (so unsaved text is what Claude sees). VS Code-facing
 * (chatEnvironment.ts passes it to the chat as ChatEnvironment.promptWithAttachments).
 */
import * as vscode from 'vscode';
import { MAX_ATTACHMENT_CHARS, type Attachment } from './chatAttachments';

/** The prompt Claude gets: the user's text, then one block per attachment. */
export async function promptWithAttachments(text: string, attachments: readonly Attachment[]): Promise<string> {
  if (attachments.length === 0) return text;
  const blocks = await Promise.all(attachments.map(attachmentBlock));
  return `${text}\n\n${blocks.join('\n\n')}`;
}

async function attachmentBlock(a: Attachment): Promise<string> {
  const where = a.range ? `${a.shownPath} (lines ${a.range.start.line + 1}-${a.range.end.line + 1})` : a.shownPath;
  let content: string;
  try {
    content = await readText(a.uri, a.range);
  } catch {
    return `(Attached ${where}, which could not be read.)`;
  }
  if (content.length > MAX_ATTACHMENT_CHARS) {
    return `(Attached ${where}: ${content.length} characters, too large to include; read it with your tools if needed.)`;
  }
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  return `Attached ${where}:\n${fence}\n${content}\n${fence}`;
}

async function readText(uri: vscode.Uri, range: vscode.Range | undefined): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText(range);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  if (!range) return text;
  return (await vscode.workspace.openTextDocument(uri)).getText(range);
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

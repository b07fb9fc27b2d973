/**
 * Asks for the project goal: a one-line input box, with a button to write a longer goal in an
 * editor instead (an untitled markdown document, finished with a "Done" notification button or
 * by closing the document).
 */
import * as vscode from 'vscode';

const EDITOR_HINT = '<!-- Write the project goal below (what should exist when the work is done; a list of features is welcome). Press "Done" in the notification when finished. -->\n\n';

export async function askProjectGoal(folderName: string): Promise<string | undefined> {
  const answer = await oneLineGoal(folderName);
  if (answer === 'editor') return goalFromEditor();
  return answer;
}

function oneLineGoal(folderName: string): Promise<string | 'editor' | undefined> {
  const input = vscode.window.createInputBox();
  const editorButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: 'Write in an editor… (multi-line goal)' };
  input.title = `Initialize Project Memory: ${folderName}`;
  input.prompt = 'What is the goal of this project? Press Enter, or use the editor button (top right) to write a longer goal.';
  input.placeholder = 'e.g. A command-line todo app: add, list, complete and delete todos, stored in a JSON file';
  input.buttons = [editorButton];
  input.ignoreFocusOut = true;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: string | 'editor' | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      input.dispose();
    };
    input.onDidTriggerButton((button) => button === editorButton && finish('editor'));
    input.onDidChangeValue(() => (input.validationMessage = undefined));
    input.onDidAccept(() => {
      const goal = input.value.trim();
      if (goal === '') input.validationMessage = 'Describe the goal in a few words (or use the editor button).';
      else finish(goal);
    });
    input.onDidHide(() => finish(undefined));
    input.show();
  });
}

async function goalFromEditor(): Promise<string | undefined> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: EDITOR_HINT });
  await vscode.window.showTextDocument(doc, { preview: false, selection: new vscode.Range(2, 0, 2, 0) });
  // Closing an untitled document may discard its text before the close event: keep the latest.
  let latest = doc.getText();
  const disposables = [
    vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && (latest = doc.getText())),
  ];
  const closed = new Promise<'closed'>((resolve) => disposables.push(vscode.workspace.onDidCloseTextDocument((d) => d === doc && resolve('closed'))));
  const pressed = vscode.window.showInformationMessage('Write the project goal in the editor, then press Done.', 'Done', 'Cancel');
  const outcome = await Promise.race([closed, pressed]);
  for (const d of disposables) d.dispose();
  if (outcome === 'Cancel' || outcome === undefined) return undefined;
  const goal = stripHint(outcome === 'Done' ? doc.getText() : latest);
  if (outcome === 'Done') await closeWithoutSaving(doc);
  if (goal === '') {
    void vscode.window.showWarningMessage('The goal was empty: project memory was not initialized.');
    return undefined;
  }
  return goal;
}

function stripHint(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/, '').trim();
}

/** The goal is kept in progress.md; the scratch document would only ask to be saved. */
async function closeWithoutSaving(doc: vscode.TextDocument): Promise<void> {
  if (vscode.window.activeTextEditor?.document !== doc) await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

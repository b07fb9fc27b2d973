import * as vscode from 'vscode';
import type { TouchedPath } from '../core/memory/types';

/**
 * A memory file an agent just read or changed, in the workspace folder whose store it is in.
 * `writer` names the agent when it is not Claude, in history's words (`authorSubject`: "Copilot" for
 * the Language Model tool), so the tree and Memory Changes say the same.
 */
export type MemoryTouch = TouchedPath & { folder: vscode.WorkspaceFolder; writer?: string };

/**
 * Where the agent's memory tool calls become visible to the rest of the UI: the chat fires one
 * touch after each tool call; the tree reveals and marks the file.
 */
export class MemoryActivity implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<MemoryTouch>();
  private last: MemoryTouch | undefined;
  readonly onDidTouch = this.emitter.event;

  /** The most recent touch, for views created after it happened. */
  get lastTouch(): MemoryTouch | undefined {
    return this.last;
  }

  fire(touch: MemoryTouch): void {
    this.last = touch;
    this.emitter.fire(touch);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

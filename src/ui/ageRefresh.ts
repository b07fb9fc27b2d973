import type * as vscode from 'vscode';

/** Relative ages ("5 min ago") go stale; a view showing them re-reads this often while visible. */
const AGE_REFRESH_MS = 60_000;

/** Calls `refresh` every minute while `view` is visible, so the ages it shows stay true. */
export function refreshAgesWhileVisible(view: vscode.TreeView<unknown>, refresh: () => void): vscode.Disposable {
  const timer = setInterval(() => {
    if (view.visible) refresh();
  }, AGE_REFRESH_MS);
  return { dispose: () => clearInterval(timer) };
}

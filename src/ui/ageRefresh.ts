import type * as vscode from 'vscode';

/** Relative ages ("5 min ago") go stale; a view showing them is redrawn once its ages are this old. */
const AGE_REFRESH_MS = 60_000;
/** How often a visible view checks the age of what it shows. */
const CHECK_EVERY_MS = 15_000;

/**
 * Calls `refresh` while `view` is visible whenever what it shows was drawn more than a minute ago
 * (`drawnAt`: the time of its last redraw, for any reason), so the ages it shows stay true and a
 * view that redraws anyway (a store changed) is not redrawn once more for its ages.
 */
export function refreshAgesWhileVisible(view: vscode.TreeView<unknown>, refresh: () => void, drawnAt: () => number, now: () => number = Date.now): vscode.Disposable {
  const timer = setInterval(() => {
    if (view.visible && now() - drawnAt() >= AGE_REFRESH_MS) refresh();
  }, CHECK_EVERY_MS);
  return { dispose: () => clearInterval(timer) };
}

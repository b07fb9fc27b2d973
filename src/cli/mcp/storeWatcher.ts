/**
 * Notices changes to the store folder made by anyone (this server's tool calls, the editor, git,
 * another agent) and reports them once per burst, so MCP clients can re-read resources.
 */
import * as fs from 'node:fs';

/** Changes within this many milliseconds of each other are reported once. */
const SETTLE_MS = 50;

export function watchStore(root: string, onChange: () => void, onError: (e: unknown) => void): { close(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(root, { recursive: true, persistent: false }, (_event, name) => {
      // Hidden entries are not resources: the store lock in .meta changes on every call.
      if (typeof name === 'string' && name.split(/[\\/]/).some((part) => part.startsWith('.'))) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        onChange();
      }, SETTLE_MS);
    });
  } catch (e) {
    // No notifications (e.g. no inotify watches left); the server works without them.
    onError(e);
    return { close() {} };
  }
  watcher.on('error', onError);
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}

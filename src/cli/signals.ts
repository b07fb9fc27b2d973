/**
 * How a long-running command (`run`, `mcp`, `exec`) ends on a signal: SIGINT (Ctrl+C), SIGTERM (a
 * kill, a service manager) and SIGHUP (a closed terminal) all stop it the same clean way (a run
 * stops its command and the model's turn, a server answers what it has read), and a second one
 * exits at once. The exit status says which: 128 + the signal's number (130, 143, 129).
 *
 * Without these handlers Node would die at once on SIGTERM and SIGHUP, and an unsandboxed
 * command's processes, which run in a process group of their own, would live on; and the sandbox
 * runtime's own SIGTERM handler would make SIGTERM do nothing at all but stop its proxy.
 * Whatever way the process ends, the commands' processes are killed by PersistentShell's exit
 * handler, and a sandboxed command dies with its bubblewrap, a child with --die-with-parent.
 */
import * as os from 'node:os';

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit status of a command stopped by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 2);
}

export interface StopOnSignals {
  /** Aborted at the first stop signal. */
  signal: AbortSignal;
  /** The first stop signal received, if any. */
  received(): NodeJS.Signals | undefined;
  dispose(): void;
}

/** Until dispose(): the first stop signal aborts `signal` (and calls `onStop`), a second exits at once. */
export function stopOnSignals(onStop?: (signal: NodeJS.Signals) => void): StopOnSignals {
  const controller = new AbortController();
  let first: NodeJS.Signals | undefined;
  const handlers = STOP_SIGNALS.map((name) => {
    const handler = () => {
      if (first !== undefined) process.exit(signalExitCode(first));
      first = name;
      controller.abort();
      onStop?.(name);
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

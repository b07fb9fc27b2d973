import * as vscode from 'vscode';

/** The extension's one output channel name (Output view, "Claude Memory"). */
export const LOG_CHANNEL_NAME = 'Claude Memory';

/**
 * A component's view of the shared LogOutputChannel: every line starts with `[component]` so one
 * channel stays readable. Never pass it secrets (API keys) or file contents.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
}

export function componentLogger(channel: vscode.LogOutputChannel, component: string): Logger {
  const prefix = `[${component}] `;
  return {
    trace: (m) => channel.trace(prefix + m),
    debug: (m) => channel.debug(prefix + m),
    info: (m) => channel.info(prefix + m),
    warn: (m) => channel.warn(prefix + m),
    error: (m) => channel.error(prefix + (m instanceof Error ? `${m.name}: ${m.message}` : m)),
  };
}

/**
 * The system prompt: short, and stable for a day in a folder, so that it is cached with the tool
 * definitions (breakpoint 1 in request.ts). Only facts the model cannot see for itself and the one
 * rule that settles conflicts between memory and the workspace.
 */
export interface PromptFacts {
  /** `Linux`, `macOS`, `Windows`. */
  os: string;
  /** The bash tool's shell, or undefined when there is none (virtual workspaces). */
  shell: string | undefined;
  folderName: string;
  /** Absolute, `/`-separated: what the text editor's absolute paths start with. */
  folderPath: string;
  /** YYYY-MM-DD. */
  date: string;
  /** Whether the text editor tool is present (false: memory only). */
  editor: boolean;
}

export function buildSystemPrompt(facts: PromptFacts): string {
  const lines = [
    `You are Claude, working with the user in the workspace folder "${facts.folderName}" at ${facts.folderPath}, on ${facts.os}. Today is ${facts.date}.`,
    'Your memory is the /memories directory, reached only with the memory tool; it persists across conversations. ' +
      "The workspace's files and the user are the truth: when memory disagrees with them, trust them and correct memory.",
  ];
  if (facts.editor) {
    lines.push(
      `Read and edit workspace files with str_replace_based_edit_tool, using paths inside ${facts.folderPath} (absolute, or relative to it).`,
    );
  }
  if (facts.shell) {
    lines.push(`The bash tool runs ${facts.shell} in ${facts.folderPath}; the user approves commands that no rule allows, and may decline.`);
  }
  return lines.join('\n');
}

// The date is the one the multi-session templates use (local calendar day).
export { isoDate } from '../session/templates';

export function osName(platform: string): string {
  return platform === 'darwin' ? 'macOS' : platform === 'win32' ? 'Windows' : platform === 'linux' ? 'Linux' : platform;
}

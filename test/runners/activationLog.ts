// Reads how long activating our extension took from the extension host's own log
// ("ExtensionService#_doActivateExtension <id>, ..."), for the figures printed after a run.
import { CodeServer } from '../e2e/support';

const extensionId = 'claude-workspace-memory.claude-workspace-memory';

export function activationFigures(server: CodeServer): string | undefined {
  const lines = server.extensionHostLog().split('\n').filter((l) => l.includes(extensionId));
  const relevant = lines.filter((l) => /activat/i.test(l));
  return relevant.length > 0 ? relevant.map((l) => l.trim()).join(' | ') : undefined;
}

/** The change summary's view of a test workspace's memory (its real engine and files). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SummaryMemory } from '../../../src/features/chat/changeSummaryPort';
import type { Workspace } from '../checkpoints/checkpointSupport';

export function summaryMemoryOf(ws: Workspace): SummaryMemory {
  return {
    history: () => ws.engine.history(),
    versionText: async (version) => {
      const bytes = await ws.engine.versionContent(version);
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
    },
    currentText: async (rel) => {
      const file = path.join(ws.folder, '.claude-memories', rel);
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    },
  };
}

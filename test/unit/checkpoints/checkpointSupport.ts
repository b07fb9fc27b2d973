/** Temp workspaces with a real git and a real memory engine, for the checkpoint tests. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckpointStore } from '../../../src/core/checkpoints';
import type { MemoryEngine } from '../../../src/core/memory';
import { openCheckpoints } from '../../../src/platform/node/checkpointRepository';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';

export interface Workspace {
  /** The temp folder holding the workspace, the state home and an "outside" folder. */
  root: string;
  folder: string;
  home: string;
  outside: string;
  engine: MemoryEngine;
  store: CheckpointStore;
  write(rel: string, content: string | Uint8Array): void;
  read(rel: string): Buffer;
  exists(rel: string): boolean;
  cleanup(): void;
}

export async function makeWorkspace(options: { maxFileBytes?: number } = {}): Promise<Workspace> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-checkpoints-')));
  const folder = path.join(root, 'project');
  const home = path.join(root, 'state');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(folder);
  fs.mkdirSync(outside);
  const { engine } = createNodeMemoryEngine(path.join(folder, '.claude-memories'), { guards: false });
  const store = await openCheckpoints(folder, { memoryFolder: '.claude-memories', memory: engine, home, maxFileBytes: options.maxFileBytes });
  const abs = (rel: string) => path.join(folder, rel);
  return {
    root,
    folder,
    home,
    outside,
    engine,
    store,
    write(rel, content) {
      fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
      fs.writeFileSync(abs(rel), content);
    },
    read: (rel) => fs.readFileSync(abs(rel)),
    exists: (rel) => fs.existsSync(abs(rel)) || isLink(abs(rel)),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every file below `dir` (links as `-> target`), with its bytes as hex: to compare whole trees. */
export function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isSymbolicLink()) out[r] = `-> ${fs.readlinkSync(path.join(dir, r))}`;
      else if (st.isDirectory()) walk(r);
      else out[r] = `${(st.mode & 0o777).toString(8)} ${fs.readFileSync(path.join(dir, r)).toString('hex')}`;
    }
  };
  walk('');
  return out;
}

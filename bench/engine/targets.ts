/**
 * The three implementations the engine benchmark compares, each as a MemoryToolExecutor so that
 * all of them run through the very same JSON Lines loop (src/cli/jsonLines.ts) that
 * `claude-memory exec` uses.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { MemoryEngine, type MemoryEngineOptions } from '../../src/core/memory';
import type { MemoryCommandInput, MemoryToolExecutor, MemoryToolResult } from '../../src/core/memory/types';
import { NodeMemoryFileSystem } from '../../src/platform/node/nodeFileSystem';
import { createNodeMemoryEngine } from '../../src/platform/node/nodeMemoryEngine';

export interface Target {
  label: string;
  /** Builds a fresh executor over an empty store inside `dir`. */
  open(dir: string): Promise<MemoryToolExecutor>;
}

export function oursTarget(label: string, options: Partial<MemoryEngineOptions> = {}): Target {
  return {
    label,
    async open(dir) {
      const store = new NodeMemoryFileSystem(path.join(dir, '.claude-memories'));
      await store.createDirectory('');
      return new MemoryEngine(store, options);
    },
  };
}

/** The engine as `claude-memory exec` builds it (createNodeMemoryEngine: store lock, history on), guards off like the others. */
export function nodeEngineTarget(label: string): Target {
  return {
    label,
    async open(dir) {
      const { fs: store, engine } = createNodeMemoryEngine(path.join(dir, '.claude-memories'), { guards: false });
      await store.createDirectory('');
      return engine;
    },
  };
}

/** @anthropic-ai/sdk's BetaLocalFilesystemMemoryTool, errors turned into is_error results. */
export const sdkTarget: Target = {
  label: 'SDK BetaLocalFilesystemMemoryTool',
  async open(dir) {
    const tool = await BetaLocalFilesystemMemoryTool.init(dir);
    return {
      async execute(input: unknown): Promise<MemoryToolResult> {
        const cmd = input as MemoryCommandInput;
        try {
          // The SDK's handler map, called the way its betaMemoryTool().run does.
          const handler = (tool as unknown as Record<string, (c: MemoryCommandInput) => Promise<string>>)[cmd.command];
          return { is_error: false, content: await handler.call(tool, cmd) };
        } catch (e) {
          return { is_error: true, content: e instanceof Error ? e.message : String(e) };
        }
      },
    };
  },
};

/** The same file-system work done with bare fs/promises calls: no validation, no link checks, no caps. */
export const bareTarget: Target = {
  label: 'bare fs (no checks)',
  async open(dir) {
    const root = path.join(dir, 'memories');
    await fs.mkdir(root, { recursive: true });
    const host = (p: string) => path.join(root, p.slice('/memories'.length));
    const ok = (content: string): MemoryToolResult => ({ is_error: false, content });
    return {
      async execute(input: unknown): Promise<MemoryToolResult> {
        const cmd = input as MemoryCommandInput;
        try {
          switch (cmd.command) {
            case 'view': {
              const p = host(cmd.path);
              if ((await fs.stat(p)).isDirectory()) return ok(await listTwoLevels(p, cmd.path));
              const lines = (await fs.readFile(p, 'utf8')).split('\n');
              return ok(lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n'));
            }
            case 'create': {
              const p = host(cmd.path);
              await fs.mkdir(path.dirname(p), { recursive: true });
              await fs.writeFile(p, cmd.file_text, { flag: 'wx', mode: 0o600 });
              return ok(`File created successfully at: ${cmd.path}`);
            }
            case 'str_replace': {
              const p = host(cmd.path);
              const text = await fs.readFile(p, 'utf8');
              const at = text.indexOf(cmd.old_str);
              if (at < 0 || text.indexOf(cmd.old_str, at + 1) >= 0) return { is_error: true, content: 'not unique' };
              await fs.writeFile(p, text.slice(0, at) + (cmd.new_str ?? '') + text.slice(at + cmd.old_str.length));
              return ok('The memory file has been edited.');
            }
            case 'insert': {
              const p = host(cmd.path);
              const lines = (await fs.readFile(p, 'utf8')).split('\n');
              lines.splice(cmd.insert_line, 0, cmd.insert_text);
              await fs.writeFile(p, lines.join('\n'));
              return ok(`The file ${cmd.path} has been edited.`);
            }
            case 'rename':
              await fs.rename(host(cmd.old_path), host(cmd.new_path));
              return ok(`Successfully renamed ${cmd.old_path} to ${cmd.new_path}`);
            case 'delete':
              await fs.rm(host(cmd.path), { recursive: true });
              return ok(`Successfully deleted ${cmd.path}`);
          }
        } catch (e) {
          return { is_error: true, content: (e as Error).message };
        }
      },
    };
  },
};

async function listTwoLevels(dir: string, shown: string): Promise<string> {
  const out: string[] = [];
  const walk = async (d: string, rel: string, depth: number) => {
    const entries = await fs.readdir(d, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = path.join(d, e.name);
      const st = await fs.stat(p);
      out.push(`${st.size}\t${shown}/${rel}${e.name}`);
      if (e.isDirectory() && depth < 2) await walk(p, `${rel}${e.name}/`, depth + 1);
    }
  };
  await walk(dir, '', 1);
  return out.join('\n');
}

/**
 * Store harnesses the engine suites run against: the in-memory fake and, on a temp dir, the
 * Node adapter. Each gives the same test helpers (seed, peek, symlink, snapshot) implemented
 * directly on its storage, so assertions never go through the engine under test.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryEngine, type MemoryEngineOptions, type MemoryFileSystem, type MemoryToolResult } from '../../../src/core/memory';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import * as assert from 'node:assert/strict';

export interface StoreHarness {
  readonly fs: MemoryFileSystem;
  seed(rel: string, content: string | Uint8Array): Promise<void>;
  peek(rel: string): Promise<Uint8Array | undefined>;
  peekText(rel: string): Promise<string | undefined>;
  /** A link at `rel` to the store-relative `target`, or to a folder outside the store. */
  symlink(rel: string, target: { inside: string } | 'outside-dir' | 'outside-file'): Promise<void>;
  /**
   * Every memory entry with its content, sorted: equal snapshots mean no memory changed. The
   * store's private `.meta` folder (lock, history, read times) is left out: history tests look at it.
   */
  snapshot(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export interface HarnessFactory {
  readonly name: string;
  create(): Promise<StoreHarness>;
}

const inMemory: HarnessFactory = {
  name: 'in-memory',
  async create() {
    const fake = new InMemoryFileSystem();
    return {
      fs: fake,
      seed: async (rel, content) => fake.seed(rel, content),
      peek: async (rel) => fake.peek(rel),
      peekText: async (rel) => fake.peekText(rel),
      symlink: async (rel, target) => fake.symlink(rel, typeof target === 'string' ? `../../${target}` : target.inside),
      snapshot: async () => withoutMeta(fake.snapshot()),
      cleanup: async () => undefined,
    };
  },
};

const node: HarnessFactory = {
  name: 'node-fs',
  async create() {
    const base = await fs.mkdtemp(path.join(os.tmpdir(), 'memory-engine-'));
    const store = path.join(base, '.claude-memories');
    const outside = path.join(base, 'outside');
    await fs.mkdir(store);
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret.env'), 'TOP=secret\n');
    const host = (rel: string) => path.join(store, ...rel.split('/'));
    const peek = async (rel: string) => {
      try {
        const stat = await fs.lstat(host(rel));
        return stat.isFile() ? new Uint8Array(await fs.readFile(host(rel))) : undefined;
      } catch {
        return undefined;
      }
    };
    return {
      fs: new NodeMemoryFileSystem(store),
      async seed(rel, content) {
        await fs.mkdir(path.dirname(host(rel)), { recursive: true });
        await fs.writeFile(host(rel), content);
      },
      peek,
      peekText: async (rel) => {
        const bytes = await peek(rel);
        return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
      },
      async symlink(rel, target) {
        await fs.mkdir(path.dirname(host(rel)), { recursive: true });
        const to =
          target === 'outside-dir' ? outside : target === 'outside-file' ? path.join(outside, 'secret.env') : host(target.inside);
        await fs.symlink(to, host(rel));
      },
      async snapshot() {
        const out: string[] = [];
        const walk = async (dir: string, prefix: string) => {
          for (const name of await fs.readdir(dir)) {
            const full = path.join(dir, name);
            const stat = await fs.lstat(full);
            if (stat.isSymbolicLink()) out.push(`${prefix}${name} -> link`);
            else if (stat.isDirectory()) {
              out.push(`${prefix}${name}/`);
              await walk(full, `${prefix}${name}/`);
            } else out.push(`${prefix}${name} (${stat.size}) ${(await fs.readFile(full)).toString('base64')}`);
          }
        };
        await walk(store, '');
        // The outside folder must never change either.
        out.push(`outside: ${(await fs.readdir(outside)).sort().join(',')}`);
        return withoutMeta(out).sort();
      },
      cleanup: () => fs.rm(base, { recursive: true, force: true }),
    };
  },
};

export const HARNESSES: readonly HarnessFactory[] = [inMemory, node];

/**
 * Declares `body` once per harness, with a fresh store and engine before each test.
 * `ctx.engine` uses `options`; tests needing other options make their own with `ctx.newEngine`.
 */
export function forEachStore(
  title: string,
  body: (ctx: SuiteContext) => void,
  options?: Partial<MemoryEngineOptions>,
): void {
  for (const factory of HARNESSES) {
    describe(`${title} [${factory.name}]`, function () {
      const ctx = {} as SuiteContext;
      beforeEach(async () => {
        const store = await factory.create();
        ctx.store = store;
        ctx.adapter = factory.name;
        ctx.newEngine = (o) => new MemoryEngine(store.fs, { ...options, ...o });
        ctx.engine = ctx.newEngine();
        ctx.run = (input) => ctx.engine.execute(input);
      });
      afterEach(async () => ctx.store.cleanup());
      body(ctx);
    });
  }
}

export interface SuiteContext {
  store: StoreHarness;
  adapter: string;
  engine: MemoryEngine;
  newEngine(options?: Partial<MemoryEngineOptions>): MemoryEngine;
  run(input: unknown): Promise<MemoryToolResult>;
}

/** Asserts success and returns the text content. */
export function ok(result: MemoryToolResult): string {
  assert.equal(result.is_error, false, `expected success, got: ${JSON.stringify(result.content)}`);
  assert.equal(typeof result.content, 'string');
  return result.content as string;
}

/** Asserts an is_error result and returns its text. */
export function failed(result: MemoryToolResult): string {
  assert.equal(result.is_error, true, `expected an error, got: ${JSON.stringify(result.content)}`);
  assert.equal(typeof result.content, 'string');
  return result.content as string;
}

/** Asserts the exact error text. */
export function failsWith(result: MemoryToolResult, text: string): void {
  assert.equal(failed(result), text);
}

function withoutMeta(entries: string[]): string[] {
  return entries.filter((e) => !e.startsWith('.meta/'));
}

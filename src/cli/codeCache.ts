/**
 * Loads one of the CLI's sibling bundles (cli-mcp.js, cli-store.js) with a V8 code cache, so a
 * command's second and later starts skip most of compiling the bundle (Node 20 has no
 * `module.enableCompileCache`, which Node 22 added). In bench/mcp it takes about a tenth of bare
 * Node's start time off `mcp`'s start.
 *
 * The cache is the bundle's compiled code as V8 serialises it (`vm.Script#createCachedData`),
 * written once per bundle content, path (V8 keeps the path it was compiled at for stack traces),
 * Node version and architecture:
 *
 *   Linux:   $XDG_CACHE_HOME/claude-memory/v8/<bundle>-<path hash>-<content hash>.bin  (default ~/.cache)
 *   macOS:   ~/Library/Caches/claude-memory/v8/...
 *   Windows: %LOCALAPPDATA%\claude-memory\v8\...
 *
 * V8 checks the data against the source and its flags and rejects a mismatch (the bundle then
 * compiles as usual and the file is rewritten). Nothing here can fail a command: an unreadable
 * or unwritable cache only means a normal compile. `CLAUDE_MEMORY_CODE_CACHE=0` turns it off.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** How a bundle load went (for tests). */
export type CodeCacheUse = 'off' | 'none' | 'used' | 'rejected';

/** The folder of the code cache files (null: off). */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string | null {
  if (env.CLAUDE_MEMORY_CODE_CACHE === '0') return null;
  if (platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'claude-memory', 'v8');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'claude-memory', 'v8');
  const cache = env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(cache, 'claude-memory', 'v8');
}

/**
 * `require(file)` for a CommonJS bundle, through the code cache in `dir`. Resolves the module's
 * exports; `onUse` hears whether the cache was used.
 */
export function requireWithCodeCache(file: string, dir: string | null = codeCacheDir(), onUse?: (use: CodeCacheUse) => void): unknown {
  if (dir === null) {
    onUse?.('off');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file);
  }
  const source = fs.readFileSync(file, 'utf8');
  // <bundle>-<where>-<what>: one file per installed copy, replaced when that copy changes.
  const where = createHash('sha256').update(file).digest('hex').slice(0, 8);
  const what = createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 16);
  const cacheFile = path.join(dir, `${path.basename(file, '.js')}-${where}-${what}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // Not cached yet.
  }
  // The bundles loaded here are built without `import()` (cliBundles.js): on Node 20 a script
  // compiled from cached data loses this callback. It covers a first compile only.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const use: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  // The module as `require` would make it: cached under its path, with its own require.
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  (Module as unknown as { _cache: Record<string, Module> })._cache[file] = mod;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  try {
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    delete (Module as unknown as { _cache: Record<string, Module> })._cache[file];
    throw e;
  }
  mod.loaded = true;
  // At once, with the code compiled so far (the bundle's top level): a server is often stopped
  // right after its first answer, before any later moment. Only the first start pays for it.
  if (use !== 'used') writeCache(script, dir, cacheFile);
  onUse?.(use);
  return mod.exports;
}

function writeCache(script: vm.Script, dir: string, cacheFile: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole under a private name, then renamed: a reader never sees half a file.
    const temp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temp, cacheFile);
    // The caches of this copy's earlier versions are of no use any more (other copies keep theirs).
    const prefix = path.basename(cacheFile).replace(/[0-9a-f]{16}\.bin$/, '');
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.bin') && name !== path.basename(cacheFile)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // A read-only home, a full disk: the next start compiles again.
  }
}

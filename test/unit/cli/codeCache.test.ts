// The CLI's V8 code cache for its sibling bundles (src/cli/codeCache.ts).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheDir, type CodeCacheUse } from '../../../src/cli/codeCache';
import { bundleCli } from './support';

const CODE_CACHE = path.join(__dirname, '../../../src/cli/codeCache.js');

describe('cli code cache', () => {
  let tmp: string;
  let cacheDir: string;
  let bundle: string;
  /** Loads the bundle in a new Node process (V8 also caches compiled code within a process). */
  const load = (file = bundle, dir: string | null = cacheDir) => {
    const script = `const u = []; const e = require(${JSON.stringify(CODE_CACHE)}).requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(dir)}, (x) => u.push(x));
      e.later().then((later) => process.stdout.write(JSON.stringify({ use: u[0], answer: e.answer(), where: e.where, later, cached: require.cache[${JSON.stringify(file)}]?.exports === e })));`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { use: CodeCacheUse; answer: string; where: string; later: string; cached: boolean };
  };
  const cacheFiles = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-codecache-'));
    cacheDir = path.join(tmp, 'cache', 'v8');
    bundle = path.join(tmp, 'cli-test.js');
    fs.writeFileSync(
      bundle,
      "const os = require('node:os');\nexports.answer = () => 'v1:' + typeof os.tmpdir;\nexports.where = __filename;\nexports.later = async () => typeof (await Promise.resolve(require('node:fs'))).readFileSync;\n",
    );
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('runs the bundle as require would (exports, require, __filename), writes the cache once and uses it on the next load', () => {
    const first = load();
    assert.equal(first.use, 'none');
    assert.equal(first.answer, 'v1:function');
    assert.equal(first.where, bundle);
    assert.equal(first.cached, true);
    // A require in a function compiled later (esbuild turns the bundles' import() into these).
    assert.equal(first.later, 'function');
    const files = cacheFiles();
    assert.equal(files.length, 1);
    assert.match(files[0], /^cli-test-[0-9a-f]{8}-[0-9a-f]{16}\.bin$/);
    assert.ok(fs.statSync(path.join(cacheDir, files[0])).size > 0);
    const second = load();
    assert.equal(second.use, 'used');
    assert.equal(second.answer, 'v1:function');
    assert.equal(second.later, 'function');
    assert.deepEqual(cacheFiles(), files);
  });

  it('never runs stale code: a changed bundle (same length) gets a new cache, and the old one is removed', () => {
    load();
    const [old] = cacheFiles();
    fs.writeFileSync(bundle, fs.readFileSync(bundle, 'utf8').replace("'v1:'", "'v2:'"));
    const changed = load();
    assert.equal(changed.use, 'none');
    assert.equal(changed.answer, 'v2:function');
    assert.equal(cacheFiles().length, 1);
    assert.notEqual(cacheFiles()[0], old);
  });

  it('keeps one cache per installed copy: two copies of the same bundle do not evict each other', () => {
    const copy = path.join(tmp, 'other', 'cli-test.js');
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(bundle, copy);
    load();
    load(copy);
    assert.equal(cacheFiles().length, 2);
    assert.equal(load().use, 'used');
    assert.equal(load(copy).use, 'used');
  });

  it('compiles as usual over a damaged cache file, and replaces it', () => {
    load();
    const [file] = cacheFiles();
    fs.writeFileSync(path.join(cacheDir, file), Buffer.from('not V8 code at all'));
    const again = load();
    assert.equal(again.use, 'rejected');
    assert.equal(again.answer, 'v1:function');
    assert.equal(load().use, 'used');
  });

  it('loads when the cache cannot be written, and can be turned off', () => {
    fs.writeFileSync(path.join(tmp, 'cache'), 'a file where the folder would be');
    assert.equal(load().answer, 'v1:function');
    assert.equal(load().use, 'none');
    assert.equal(codeCacheDir({ CLAUDE_MEMORY_CODE_CACHE: '0' }), null);
    assert.equal(load(bundle, null).use, 'off');
  });

  it('gets bundles without import() (which a cached vm.Script cannot run on Node 20)', async function () {
    this.timeout(120_000);
    const out = path.join(tmp, 'dist', 'cli.js');
    await bundleCli(out);
    for (const name of ['cli-store.js', 'cli-mcp.js']) {
      const code = fs.readFileSync(path.join(tmp, 'dist', name), 'utf8');
      assert.doesNotMatch(code, /\bimport\s*\(/, name);
    }
    // The control: the run bundle (plain require) keeps them.
    assert.match(fs.readFileSync(path.join(tmp, 'dist', 'cli-run.js'), 'utf8'), /\bimport\s*\(/);
  });

  it('keeps its files in the platform cache folder, never relative to the current folder', () => {
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u'), '/x/cache/claude-memory/v8');
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/u'), '/home/u/.cache/claude-memory/v8');
    assert.equal(codeCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/claude-memory/v8');
    assert.equal(codeCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'), path.join('C:\\Users\\u\\AppData\\Local', 'claude-memory', 'v8'));
  });
});

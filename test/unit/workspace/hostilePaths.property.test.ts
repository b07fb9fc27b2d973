/**
 * Property: whatever path the model gives the workspace text editor, with whichever command, the
 * real tool over the real Node adapter never reads or changes anything outside the workspace
 * folder, inside its `.git` or inside its memory folder, and never shows their contents. A
 * sentinel tree surrounds the folder (its parent, a sibling folder with a look-alike name, a
 * folder reachable only through links planted inside it); every run compares a full lstat
 * snapshot of the protected places.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { showRawPath } from '../../../src/core/memory/paths';
import { TextEditorTool } from '../../../src/core/workspace';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 1_000);
/** Top-level entries of the folder the editor must never change: git's data, memory, planted links. */
const PROTECTED = new Set(['.git', '.claude-memories', 'escape', 'escapefile', 'parentlink', 'gitlink']);

describe('hostile paths (property, text editor over the Node adapter)', function () {
  this.timeout(120_000);
  const SENTINEL = `SENTINEL-${randomBytes(8).toString('hex')}`;
  let tmp: string;
  let ws: string;
  let outside: string;
  let tool: TextEditorTool;
  let baseline: string;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-editor-hostile-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    for (const file of [
      path.join(tmp, 'parent.txt'),
      path.join(tmp, 'wsX', 'secret.txt'),
      path.join(outside, 'secret.txt'),
      path.join(ws, '.git', 'config'),
      path.join(ws, '.git', 'hooks', 'pre-commit'),
      path.join(ws, '.claude-memories', 'progress.md'),
    ]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${SENTINEL}\n`);
    }
    fs.symlinkSync(outside, path.join(ws, 'escape'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'escapefile'));
    fs.symlinkSync('..', path.join(ws, 'parentlink'));
    fs.symlinkSync('.git', path.join(ws, 'gitlink'));
    tool = new TextEditorTool({
      fs: new NodeMemoryFileSystem(ws, { ownerOnly: false }),
      folder: { name: 'ws', root: ws, memoryFolder: '.claude-memories' },
      writePolicy: () => ({ mode: 'apply' }),
    });
    baseline = snapshot();
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** lstat of everything that must never change: all of tmp but the folder's ordinary files. */
  function snapshot(): string {
    const rows: string[] = [];
    const walk = (dir: string) => {
      for (const name of fs.readdirSync(dir).sort()) {
        const at = path.join(dir, name);
        const inWs = at.startsWith(ws + path.sep);
        const protectedInWs = inWs && PROTECTED.has(at.slice(ws.length + 1).split(path.sep)[0]);
        const s = fs.lstatSync(at);
        // The folder itself changes (mtime) when a file is legitimately created in it.
        if ((!inWs && at !== ws) || protectedInWs) rows.push(`${at}|${s.size}|${s.mtimeMs}|${s.mode}|${s.isSymbolicLink() ? fs.readlinkSync(at) : ''}`);
        if (s.isDirectory() && !s.isSymbolicLink()) walk(at);
      }
    };
    walk(tmp);
    return rows.join('\n');
  }

  const segment = fc.oneof(
    fc.constantFrom('..', '.', '', '.git', '.GIT', 'hooks', 'config', '.claude-memories', '.Claude-Memories', 'escape', 'escapefile', 'parentlink', 'gitlink'),
    fc.constantFrom('secret.txt', 'progress.md', 'new.txt', 'a', '%2e%2e', '..\\..', 'x\u0000y', 'wsX', 'outside', '~', '$HOME'),
  );
  const hostilePath = fc.tuple(fc.constantFrom('', '/', 'ROOT/', 'ROOT', '/memories/', '/etc/', 'TMP/', 'ROOTX/'), fc.array(segment, { maxLength: 5 })).map(
    ([prefix, parts]) => prefix.replace('ROOTX', `${ws}X`).replace('ROOT', ws).replace('TMP', tmp) + parts.join('/'),
  );
  const input = fc.oneof(
    hostilePath.map((p) => ({ command: 'view', path: p })),
    hostilePath.map((p) => ({ command: 'create', path: p, file_text: 'planted' })),
    hostilePath.map((p) => ({ command: 'str_replace', path: p, old_str: SENTINEL, new_str: 'overwritten' })),
    hostilePath.map((p) => ({ command: 'insert', path: p, insert_line: 0, new_str: 'planted' })),
  );

  it('never touches or shows what lies outside the folder, in .git or in memory', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (call) => {
        const result = await tool.execute(call, { toolUseId: 't', onOutput: () => undefined });
        const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
        // Echoing the model's own path and old_str is fine; anything else from outside is not.
        const echoed = [showRawPath(call.path), call.path, ...('old_str' in call ? [call.old_str] : [])];
        const own = echoed.reduce((t, e) => t.split(e).join(''), text);
        assert.ok(!own.includes(SENTINEL), `${JSON.stringify(call)} showed a sentinel: ${text}`);
        assert.ok(!own.includes(outside), `${JSON.stringify(call)} named a host path outside the folder: ${text}`);
        assert.equal(snapshot(), baseline, `${JSON.stringify(call)} changed something protected`);
      }),
      { numRuns: RUNS },
    );
  });
});

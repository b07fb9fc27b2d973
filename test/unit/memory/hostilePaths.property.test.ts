/**
 * Property: whatever path the model sends, to whichever command, the real engine over the real
 * Node adapter never reads, writes, creates, deletes or renames anything outside the store, and
 * never shows a host path. A sentinel tree sits around the store (parent folder, workspace
 * siblings, look-alike folders, a folder reachable only through links planted inside the store);
 * every run compares a full lstat snapshot of it (sizes, mtimes, ctimes, modes, link targets).
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryEngine } from '../../../src/core/memory';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);

describe('hostile paths (property, real engine over NodeMemoryFileSystem)', function () {
  this.timeout(120_000);

  const token = randomBytes(8).toString('hex');
  const SENTINEL = `SENTINEL-${token}`;
  let tmp: string;
  let ws: string;
  let store: string;
  let outside: string;
  let engine: MemoryEngine;
  let baseline: string;
  const internalErrors: unknown[] = [];

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-hostile-')));
    ws = path.join(tmp, 'ws');
    store = path.join(ws, '.claude-memories');
    outside = path.join(tmp, 'outside');
    const sentinels = [
      path.join(tmp, 'parent.txt'),
      path.join(ws, 'sibling.md'),
      path.join(ws, '.claude-memoriesX', 'secret.md'),
      path.join(ws, '.claude-memories_backup', 'secret.md'),
      path.join(ws, 'memories', 'secret.md'),
      path.join(outside, 'secret.txt'),
      path.join(outside, 'sub', 'deep.txt'),
    ];
    for (const file of sentinels) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${SENTINEL}\nline two ${SENTINEL}\n`);
    }
    fs.mkdirSync(store, { recursive: true, mode: 0o700 });
    resetStore();
    engine = new MemoryEngine(new NodeMemoryFileSystem(store), { onInternalError: (e) => internalErrors.push(e) });
    baseline = snapshotOutsideStore();
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /**
   * Puts the store back to its fixture state before every run (links that aim outside, two plain
   * files), so each generated command is judged on its own and counterexamples shrink reliably.
   */
  function resetStore(): void {
    const links: Record<string, string> = {
      escape: outside,
      escapefile: path.join(outside, 'secret.txt'),
      parentlink: '..',
      'rel-escape': '../../outside',
      dangling: path.join(outside, 'not-there.txt'),
    };
    for (const name of fs.readdirSync(store)) {
      const at = path.join(store, name);
      if (name in links && isLink(at) && fs.readlinkSync(at) === links[name]) continue;
      fs.rmSync(at, { recursive: true, force: true });
    }
    for (const [name, target] of Object.entries(links)) {
      if (!isLink(path.join(store, name))) fs.symlinkSync(target, path.join(store, name));
    }
    fs.mkdirSync(path.join(store, 'dir'));
    fs.writeFileSync(path.join(store, 'notes.md'), 'inside note\nsecond line\n');
    fs.writeFileSync(path.join(store, 'dir', 'inner.md'), 'inner text\n');
  }

  /** Every entry under tmp except the store's contents, without following links. */
  function snapshotOutsideStore(): string {
    const rows: string[] = [];
    const visit = (p: string) => {
      const st = fs.lstatSync(p);
      if (p === store) {
        rows.push(`${p} store-is-dir=${st.isDirectory()}`);
        return;
      }
      const link = st.isSymbolicLink() ? ` -> ${fs.readlinkSync(p)}` : '';
      const stamp = st.isDirectory() ? `mtime=${st.mtimeMs}` : `size=${st.size} mtime=${st.mtimeMs}`;
      rows.push(`${p} mode=${st.mode.toString(8)} ${stamp} ctime=${st.ctimeMs}${link}`);
      if (st.isDirectory()) for (const name of fs.readdirSync(p).sort()) visit(path.join(p, name));
    };
    visit(tmp);
    return rows.join('\n');
  }

  const hostPaths = () => [tmp, ws, store, outside, path.join(outside, 'secret.txt'), path.join(ws, 'sibling.md')];

  function hostilePath(): fc.Arbitrary<unknown> {
    const prefix = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('/memories', '/memories/.') }, { weight: 2, arbitrary: fc.constantFrom(
      '/memories', '/memories/', '/memories//', '/memories/.', '/memories/./', '//memories', '/./memories',
      '/memoriesX', '/memories_backup', '/memories..', '/memories%2f', '/MEMORIES', '/Memories', 'memories', 'memories/',
      '', '/', '.', '..', '~', '~/', 'file:///memories', '\\memories', '/memories\\', 'C:\\memories', 'C:/memories',
      '\\\\?\\C:\\', '/memories\u0000', ' /memories', '/memories ', '/memories\u200b', '/ｍemories', '/etc', '/proc/self/root',
      ...hostPaths(),
    ) });
    // Weighted so that traversal followed by a sentinel's name is common, not a lucky draw.
    const traversal = fc.constantFrom(
      '..', '..', '..', '%2e%2e', '%2E%2E', '%252e%252e', '%25252e%25252e', '%c0%ae%c0%ae', '..%2f', '..%5c', '..\\', '\\..',
      '.', '...', '．．', '\u2024\u2024', '\ufe30', '\u200b..', '..\u0000', '.. ', ' ..', '..;', '%2e%2e%2f', '%2E%2E%2F',
    );
    const target = fc.constantFrom(
      'escape', 'escapefile', 'parentlink', 'rel-escape', 'dangling', 'sibling.md', 'parent.txt', 'secret.txt', 'secret.md',
      'outside', 'sub', 'deep.txt', 'ws', 'memories', '.claude-memories', '.claude-memoriesX', '.claude-memories_backup',
      'dir', 'notes.md', 'inner.md',
    );
    const weird = fc.constantFrom(
      '%2f', '%5c', '%00', '%0a', '%e2%80%ae', '\\', '\u0000', '\u0001', '\n', '\r', '\t', '\u007f', '\u0085', '\u2028',
      '\u202e', '\ufeff', '?', '*', '.~tmp-x', 'a'.repeat(256), 'é'.repeat(130), '\ud800', 'CON', 'nul', 'x:y',
      'node_modules', '.hidden',
    );
    const segment = fc.oneof(
      { weight: 5, arbitrary: traversal },
      { weight: 5, arbitrary: target },
      { weight: 2, arbitrary: weird },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.constantFrom(...hostPaths()) },
    );
    const separator = fc.constantFrom('/', '/', '/', '/', '/', '/', '\\', '//', '/./', '%2f', '%5c');
    const built = fc
      .tuple(prefix, fc.array(fc.tuple(separator, segment), { maxLength: 6 }), fc.constantFrom('', '', '', '/', '/.', '\\'))
      .map(([p, segs, tail]) => p + segs.map(([s, g]) => s + g).join('') + tail);
    return fc.oneof(
      { weight: 20, arbitrary: built },
      { weight: 1, arbitrary: fc.constantFrom('/memories/' + 'a/'.repeat(600), '/memories/' + '../'.repeat(50) + 'etc/passwd', '/memories/' + 'x'.repeat(5000)) },
      { weight: 1, arbitrary: fc.anything() },
    );
  }

  function hostileCommand(): fc.Arbitrary<Record<string, unknown>> {
    const p = hostilePath();
    const benign = fc.constantFrom('/memories/notes.md', '/memories/dir', '/memories/dir/inner.md', '/memories/fresh.md');
    return fc.oneof(
      fc.record({ command: fc.constant('view'), path: p, view_range: fc.option(fc.constantFrom([1, -1], [1, 2]), { nil: undefined }) }, { requiredKeys: ['command', 'path'] }),
      fc.record({ command: fc.constant('create'), path: p, file_text: fc.constant('PWNED') }),
      fc.record({ command: fc.constant('str_replace'), path: p, old_str: fc.constantFrom('SENTINEL', 'line two', 'inside'), new_str: fc.constant('PWNED') }),
      fc.record({ command: fc.constant('insert'), path: p, insert_line: fc.constantFrom(0, 1), insert_text: fc.constant('PWNED') }),
      fc.record({ command: fc.constant('delete'), path: p }),
      fc.record({ command: fc.constant('rename'), old_path: p, new_path: benign }),
      fc.record({ command: fc.constant('rename'), old_path: benign, new_path: p }),
      fc.record({ command: fc.constant('rename'), old_path: p, new_path: p }),
    );
  }

  it(`${RUNS} generated hostile paths over every command never touch or show anything outside the store`, async () => {
    let accepted = 0;
    let dirty = false;
    await fc.assert(
      fc.asyncProperty(hostileCommand(), async (input) => {
        // Refused commands change nothing (the engine's contract), so only a success needs a reset.
        if (dirty) resetStore();
        const result = await engine.execute(input);
        if (!result.is_error) accepted++;
        dirty = !result.is_error && input.command !== 'view';
        const shown = JSON.stringify(result.content);
        assert.ok(!shown.includes(token), `sentinel content or token reached the result: ${shown.slice(0, 300)}`);
        assert.ok(!/\n\s+at /.test(shown), 'stack trace in result');
        // A host path may only appear when the input itself named it (the engine echoes paths).
        const asked = JSON.stringify(input) ?? '';
        if (!asked.includes(tmp)) assert.ok(!shown.includes(tmp), `host path in result: ${shown.slice(0, 300)}`);
        assert.ok(fs.lstatSync(store).isDirectory(), 'the store root is gone or replaced');
        assert.equal(snapshotOutsideStore(), baseline, 'something outside the store changed');
      }),
      { numRuns: RUNS },
    );
    // The property must also have exercised successful operations inside the store.
    assert.ok(accepted > 0, 'no generated command succeeded: the generator is too narrow');
    assert.deepEqual(internalErrors.map(String), [], 'the engine reported internal errors');
  });
});

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

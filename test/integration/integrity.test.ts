// No lost update in the real extension host: Features view ticks race Claude's str_replace edits
// of features.json (through the chat's engine and through a second, CLI-built engine on the same
// store, which only the store lock in .meta keeps apart), and every change lands.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import { parseFeatures } from '../../src/core/session/features';
import { createNodeMemoryEngine } from '../../src/platform/node/nodeMemoryEngine';
import { extensionApi, primaryStore } from './treeHelpers';

const COUNT = 24;
let api: ClaudeMemoryApi;

function checklist(): string {
  const features = Array.from({ length: COUNT }, (_, i) => ({ id: `F${String(i + 1).padStart(3, '0')}`, category: 'functional', description: `feature ${i + 1}`, steps: [], passes: false }));
  return JSON.stringify(features, null, 2) + '\n';
}

suite('integrity: Features ticks racing agent edits', () => {
  suiteSetup(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('claudeMemory.features.focus');
  });

  teardown(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(primaryStore(api).rootUri, 'features.json')).then(undefined, () => undefined);
  });

  test('a storm of checkbox ticks against str_replace edits from two engines loses nothing', async function () {
    // 72 locked writes from two engines, each recorded in history, plus the hand-edit notices the
    // watcher raises for the second engine's writes. No time budget here: how long this takes is
    // what bench/engine and bench/history measure (with their baselines); a hang is caught by the
    // runner's watchdog for the whole pass. The suite's 30 s default does not apply to this test.
    this.timeout(0);
    const store = primaryStore(api);
    assert.strictEqual(store.rootUri.scheme, 'file', 'this test needs a local store (the cross-process lock)');
    const uri = vscode.Uri.joinPath(store.rootUri, 'features.json');
    // A second engine on the same folder, built the way `claude-memory exec` builds it.
    const cli = createNodeMemoryEngine(store.rootUri.fsPath).engine;
    for (let round = 0; round < 3; round++) {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(checklist()));
      await api.multiSession.features.provider.refresh();
      const nodes = (await api.multiSession.features.provider.getChildren()).filter((n) => n.kind === 'feature');
      assert.strictEqual(nodes.length, COUNT);
      const work: Promise<unknown>[] = [];
      nodes.forEach((node, i) => {
        if (i % 3 === 0) {
          work.push(api.multiSession.features.setPasses([[node, vscode.TreeItemCheckboxState.Checked]]));
        } else {
          const engine = i % 3 === 1 ? store.engine : cli;
          const input = { command: 'str_replace', path: '/memories/features.json', old_str: `"description": "feature ${i + 1}",\n    "steps": [],\n    "passes": false`, new_str: `"description": "feature ${i + 1}",\n    "steps": [],\n    "passes": true` };
          work.push(
            engine.execute(input).then((r) => assert.strictEqual(r.is_error, false, `round ${round}, feature ${i + 1}: ${JSON.stringify(r.content)}`)),
          );
        }
      });
      await Promise.all(work);
      const parsed = parseFeatures(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
      assert.ok(parsed.ok);
      const failing = parsed.features.filter((f) => !f.passes).map((f) => f.id);
      assert.deepStrictEqual(failing, [], `round ${round}: these changes were lost`);
    }
  });
});

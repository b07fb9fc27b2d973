import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The codicon font is committed under media/vendor (the webview may load only from media/); this
// catches a dependency update that was not copied over.
describe('vendored codicons', () => {
  const root = join(__dirname, '..', '..', '..', '..');
  for (const file of ['codicon.css', 'codicon.ttf']) {
    it(`media/vendor/codicons/${file} matches @vscode/codicons`, () => {
      const vendored = readFileSync(join(root, 'media', 'vendor', 'codicons', file));
      const installed = readFileSync(join(root, 'node_modules', '@vscode', 'codicons', 'dist', file));
      assert.ok(vendored.equals(installed), `copy node_modules/@vscode/codicons/dist/${file} to media/vendor/codicons/`);
    });
  }
});

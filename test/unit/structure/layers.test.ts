/**
 * The layer rules of docs/architecture.md are enforced by lint (eslint.config.mjs). These tests
 * lint small fixtures, placed by file path in each layer, with the project's own configuration:
 * each forbidden import must be reported, and its allowed neighbour must not, so a rule that
 * stopped matching (or started matching everything) fails here. `npm run lint` checks the tree itself.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as ts from 'typescript';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../../..');

let eslint: ESLint;
before(function () {
  this.timeout(60_000);
  eslint = new ESLint({ cwd: ROOT });
});

/** The restricted-import messages ESLint reports for `code` placed at `file` (relative to the repository). */
async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

interface Case {
  readonly name: string;
  readonly file: string;
  readonly forbidden: string;
  readonly allowed: string;
}

const CASES: Case[] = [
  { name: 'core importing platform', file: 'src/core/memory/fixture.ts', forbidden: "import { x } from '../../platform/settings';", allowed: "import { x } from '../errors';" },
  { name: 'core importing a feature', file: 'src/core/agent/fixture.ts', forbidden: "import { x } from '../../features/chat';", allowed: "import { x } from '../memory/engine';" },
  { name: 'core importing ui', file: 'src/core/session/guards/fixture.ts', forbidden: "import { x } from '../../../ui/treeFormat';", allowed: "import { x } from '../features';" },
  { name: 'core importing vscode', file: 'src/core/memory/fixture.ts', forbidden: "import * as vscode from 'vscode';", allowed: "import { x } from './paths';" },
  { name: 'core/memory importing core/session', file: 'src/core/memory/fixture.ts', forbidden: "import { x } from '../session/features';", allowed: "import { x } from '../agent/pricing';" },
  { name: 'platform importing a feature', file: 'src/platform/fixture.ts', forbidden: "import { x } from '../features/memoryTree';", allowed: "import { x } from '../core/memory/engine';" },
  { name: 'platform importing ui', file: 'src/platform/node/fixture.ts', forbidden: "import { x } from '../../ui/prompts';", allowed: "import { x } from '../settings';" },
  { name: 'ui importing a feature', file: 'src/ui/fixture.ts', forbidden: "import { x } from '../features/changes';", allowed: "import { x } from '../platform/ids';" },
  { name: "a feature reaching into another feature's files", file: 'src/features/expiry/fixture.ts', forbidden: "import { x } from '../memoryTree/memoryTreeProvider';", allowed: "import { x } from '../memoryTree';" },
  { name: "a nested feature file reaching into another feature's files", file: 'src/features/session/parts/fixture.ts', forbidden: "import { x } from '../../memoryTree/treeHistory';", allowed: "import { x } from '../../memoryTree';" },
  { name: 'a feature importing the extension entry', file: 'src/features/changes/fixture.ts', forbidden: "import { x } from '../../extension';", allowed: "import { x } from '../../ui/ageRefresh';" },
  { name: "chat/shared (bundled into the webview) importing the extension's files", file: 'src/features/chat/shared/fixture.ts', forbidden: "import { x } from '../chatController';", allowed: "import { x } from '../../../core/agent/pricing';" },
  { name: 'the webview importing the extension', file: 'media/src/fixture.ts', forbidden: "import { x } from '../../src/features/chat/chatController';", allowed: "import { x } from '../../src/features/chat/shared/protocol';" },
  { name: 'the webview importing platform', file: 'media/src/fixture.ts', forbidden: "import { x } from '../../src/platform/ids';", allowed: "import { x } from '../../src/core/agent/pricing';" },
  { name: 'the CLI importing vscode glue', file: 'src/cli/fixture.ts', forbidden: "import { x } from '../platform/memoryStores';", allowed: "import { x } from '../platform/node/nodeFileSystem';" },
];

describe('layer rules (lint)', () => {
  for (const c of CASES) {
    it(`reports ${c.name}, and allows its neighbour`, async () => {
      const forbidden = await restrictedImports(c.file, `${c.forbidden}\nexport const y = x;\n`);
      assert.equal(forbidden.length, 1, `${c.file}: expected one restricted import for ${c.forbidden}, got ${JSON.stringify(forbidden)}`);
      const allowed = await restrictedImports(c.file, `${c.allowed}\nexport const y = x;\n`);
      assert.deepEqual(allowed, [], `${c.file}: ${c.allowed} should be allowed`);
    });
  }
});

describe('one file watcher per store', () => {
  it('src creates VS Code file watchers in one place only (platform/storeChanges.ts)', () => {
    const calls: string[] = [];
    const visitDir = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) visitDir(full);
        else if (e.name.endsWith('.ts')) {
          const source = ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
          const visit = (node: ts.Node): void => {
            if (ts.isPropertyAccessExpression(node) && node.name.text === 'createFileSystemWatcher' && ts.isCallExpression(node.parent)) {
              calls.push(path.relative(ROOT, full));
            }
            ts.forEachChild(node, visit);
          };
          visit(source);
        }
      }
    };
    visitDir(path.join(ROOT, 'src'));
    assert.deepEqual(calls, ['src/platform/storeChanges.ts']);
  });
});

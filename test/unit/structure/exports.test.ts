/**
 * What other extensions get from `vscode.extensions.getExtension(id).exports`: the packaged
 * extension must give them nothing. activate()'s test hooks hold the services (the API key's store
 * among them) and can send chat messages, so they are only in the development bundle and only in
 * ExtensionMode.Test (src/extension.ts, docs/security.md#what-the-extension-exports).
 *
 * Both bundles are built fresh from the sources with extensionBundle.js's options (the ones
 * esbuild.js uses: `--production` for the .vsix, plain for `npm run build`), and activate()'s
 * return statements are read from each bundle's syntax tree. A production activate() that returned
 * anything again (the services, the chat, a new object), or hooks no longer guarded by the test
 * mode, fails here.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../../..');

interface Bundle {
  readonly text: string;
  readonly source: ts.SourceFile;
}

async function bundle(production: boolean): Promise<Bundle> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { extensionBuild } = require(path.join(ROOT, 'extensionBundle.js')) as {
    extensionBuild: (root: string, outdir: string, options: { production: boolean }) => esbuild.BuildOptions;
  };
  const options = extensionBuild(ROOT, path.join(ROOT, 'out', 'exports-test'), { production });
  const result = await esbuild.build({ ...options, write: false, logLevel: 'silent' });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  assert.ok(js, 'esbuild wrote no extension.js');
  return { text: js.text, source: ts.createSourceFile('extension.js', js.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS) };
}

/**
 * The entry module's exports, as esbuild writes them for CommonJS:
 * `__export(extension_exports, { activate: () => activate, deactivate: () => deactivate })`
 * (names minified in production). Export name → the top-level function it returns.
 */
function entryExports(source: ts.SourceFile): Map<string, ts.FunctionDeclaration> {
  let table: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length === 2 && ts.isObjectLiteralExpression(node.arguments[1])) {
      const object = node.arguments[1];
      if (object.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'activate')) {
        assert.equal(table, undefined, 'two export tables name activate');
        table = object;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  assert.ok(table, 'the bundle has no export table with activate');
  const functions = new Map<string, ts.FunctionDeclaration>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) functions.set(statement.name.text, statement);
  }
  const exports = new Map<string, ts.FunctionDeclaration>();
  for (const property of table.properties) {
    assert.ok(ts.isPropertyAssignment(property) && ts.isIdentifier(property.name), `unexpected export entry: ${property.getText()}`);
    const getter = property.initializer;
    assert.ok(ts.isArrowFunction(getter) && ts.isIdentifier(getter.body), `unexpected export getter: ${getter.getText()}`);
    const target = functions.get(getter.body.text);
    assert.ok(target, `export ${property.name.text} is not a top-level function`);
    exports.set(property.name.text, target);
  }
  return exports;
}

/** The return statements of `fn` itself (not of the functions and classes inside it). */
function returnsOf(fn: ts.FunctionDeclaration): ts.ReturnStatement[] {
  const found: ts.ReturnStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node)) found.push(node);
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return found;
}

function returnsUndefined(statement: ts.ReturnStatement): boolean {
  const value = statement.expression;
  if (value === undefined) return true;
  if (ts.isIdentifier(value)) return value.text === 'undefined';
  return ts.isVoidExpression(value) && ts.isNumericLiteral(value.expression);
}

describe('what the extension exports', function () {
  this.timeout(120_000);
  let production: Bundle;
  let development: Bundle;
  before(async () => {
    [production, development] = await Promise.all([bundle(true), bundle(false)]);
  });

  it('the packaged bundle exports only activate and deactivate, and activate() returns nothing', () => {
    const exports = entryExports(production.source);
    assert.deepEqual([...exports.keys()].sort(), ['activate', 'deactivate']);
    const activate = exports.get('activate')!;
    const returning = returnsOf(activate).filter((r) => !returnsUndefined(r)).map((r) => r.getText());
    assert.deepEqual(returning, [], 'the packaged activate() returns a value');
  });

  it('the packaged bundle contains none of the test hooks', () => {
    for (const hook of ['setPrompts', 'memoryTreeRevealer']) {
      assert.ok(!production.text.includes(hook), `the packaged bundle contains the test hook ${hook}`);
    }
  });

  it('the development bundle returns the hooks the extension tests use, only in ExtensionMode.Test', () => {
    const activate = entryExports(development.source).get('activate')!;
    const hooks = returnsOf(activate).filter((r) => r.expression && ts.isObjectLiteralExpression(r.expression));
    assert.equal(hooks.length, 1, 'one return of the hooks object');
    const object = hooks[0].expression as ts.ObjectLiteralExpression;
    const names = object.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : p.getText()));
    for (const name of ['services', 'chat', 'testing']) assert.ok(names.includes(name), `the hooks have no ${name}`);
    let guarded = false;
    for (let node: ts.Node = hooks[0]; node.parent !== activate; node = node.parent) {
      const parent = node.parent;
      if (ts.isIfStatement(parent) && parent.thenStatement === node && /\.ExtensionMode\.Test\b/.test(parent.expression.getText())) guarded = true;
    }
    assert.ok(guarded, 'the hooks are returned outside an ExtensionMode.Test check');
  });
});

/**
 * One table of `claudeMemory.*` ids (src/platform/ids.ts), used everywhere: no other source file
 * spells an id in a string, and the command table matches package.json both ways. Reads the
 * sources with the TypeScript parser, so comments and sentences that mention a setting do not count.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { COMMANDS, CONTEXT_KEYS, VIEWS } from '../../../src/platform/ids';

const ROOT = path.resolve(__dirname, '../../../..');
const SRC = path.join(ROOT, 'src');
const TABLE = path.join(SRC, 'platform', 'ids.ts');
const ID_PREFIX = 'claudeMemory.';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every string literal and template-literal head or piece in `file` that starts with the id prefix. */
function idLiterals(file: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (node.text.startsWith(ID_PREFIX)) found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

interface PackageJson {
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    menus: Record<string, Array<{ command: string }>>;
    keybindings?: Array<{ command: string }>;
  };
}

describe('one table of command ids', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

  it('the scan finds the ids in the table itself (so an empty result elsewhere means something)', () => {
    const inTable = idLiterals(TABLE).map((l) => l.text);
    for (const id of Object.values(COMMANDS)) assert.ok(inTable.includes(id), id);
  });

  it('no file in src but src/platform/ids.ts spells a claudeMemory.… id in a string', () => {
    const files = sourceFiles(SRC).filter((f) => f !== TABLE);
    assert.ok(files.length > 50, `only ${files.length} source files found under ${SRC}`);
    const offenders = files.flatMap((f) => idLiterals(f).map((l) => `${path.relative(ROOT, f)}:${l.line} '${l.text}'`));
    assert.deepEqual(offenders, [], `use the table in src/platform/ids.ts instead:\n${offenders.join('\n')}`);
  });

  it('every command in package.json is in the table, and every command in the table is in package.json', () => {
    const declared = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...Object.values(COMMANDS)].sort(), declared);
  });

  it('menus and keybindings name only commands of the table (or VS Code\'s own)', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    const used = [...Object.values(pkg.contributes.menus).flat(), ...(pkg.contributes.keybindings ?? [])].map((m) => m.command);
    const unknown = used.filter((id) => id.startsWith(ID_PREFIX) && !known.has(id));
    assert.deepEqual(unknown, []);
  });

  it('the view ids of the table are the views package.json declares', () => {
    const declared = Object.values(pkg.contributes.views).flat().map((v) => v.id).sort();
    assert.deepEqual([...Object.values(VIEWS)].sort(), declared);
    assert.ok(Object.values(CONTEXT_KEYS).every((k) => k.startsWith(ID_PREFIX)));
  });
});

/**
 * The checklist guards inside the real MemoryEngine: every memory command on the guarded files
 * (and on the folder above them) is allowed or refused as the rules say, and a refusal leaves
 * the store exactly as it was.
 */
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { MemoryEngine } from '../../../src/core/memory/engine';
import { createChecklistGuards } from '../../../src/core/session/guards';
import type { MemoryToolResult } from '../../../src/core/memory/types';
import { formatFeatures, parseFeatures, type Feature } from '../../../src/core/session/features';
import { buildInitialMemory } from '../../../src/core/session/initialMemory';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import { featureListArb } from './arbitraries';

const f = (id: string, passes = false): Feature => ({ id, category: 'functional', description: `does ${id}`, steps: [`check ${id}`], passes });
const FEATURES = formatFeatures([f('F001'), f('F002'), f('F003')]);
const PROGRESS = '# Progress log\n\n## 2026-11-30: Project memory initialized\n### Current state\nNothing yet.\n';

function setup(): { fs: InMemoryFileSystem; engine: MemoryEngine } {
  const fs = new InMemoryFileSystem();
  fs.seed('features.json', FEATURES);
  fs.seed('progress.md', PROGRESS);
  return { fs, engine: new MemoryEngine(fs, { writeGuards: createChecklistGuards() }) };
}

function text(result: MemoryToolResult): string {
  return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
}

async function refused(engine: MemoryEngine, fs: InMemoryFileSystem, input: object, pattern: RegExp): Promise<void> {
  const snapshot = fs.snapshot();
  const result = await engine.execute(input);
  assert.equal(result.is_error, true, `allowed: ${JSON.stringify(input)} -> ${text(result)}`);
  assert.match(text(result), pattern);
  assert.deepEqual(fs.snapshot(), snapshot, 'a refused change wrote something');
}

async function allowed(engine: MemoryEngine, input: object): Promise<void> {
  const result = await engine.execute(input);
  assert.equal(result.is_error, false, `refused: ${JSON.stringify(input)} -> ${text(result)}`);
}

describe('checklist guards in the memory engine', () => {
  describe('/memories/features.json', () => {
    it('allows str_replace flipping one feature to passing', async () => {
      const { fs, engine } = setup();
      const old = '"id": "F002",\n    "category": "functional",\n    "description": "does F002",\n    "steps": [\n      "check F002"\n    ],\n    "passes": false';
      await allowed(engine, { command: 'str_replace', path: '/memories/features.json', old_str: old, new_str: old.replace('false', 'true') });
      const parsed = parseFeatures(fs.peekText('features.json') ?? '');
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.features.map((x) => x.passes), [false, true, false]);
    });

    it('allows insert of a new feature before the closing bracket', async () => {
      const { fs, engine } = setup();
      const lines = FEATURES.trimEnd().split('\n');
      // Line n-1 is "  }": insert ",{...}" after it, before "]".
      await allowed(engine, { command: 'insert', path: '/memories/features.json', insert_line: lines.length - 1, insert_text: `  ,${JSON.stringify(f('F004'))}\n` });
      const parsed = parseFeatures(fs.peekText('features.json') ?? '');
      assert.ok(parsed.ok && parsed.features.length === 4);
    });

    it('refuses str_replace rewording a feature, and removing one', async () => {
      const { fs, engine } = setup();
      await refused(engine, fs, { command: 'str_replace', path: '/memories/features.json', old_str: '"does F002"', new_str: '"does less"' }, /would change "description" of feature "F002"/);
      const second = FEATURES.slice(FEATURES.indexOf('  {\n    "id": "F002"'), FEATURES.indexOf('  {\n    "id": "F003"'));
      assert.match(second, /^ {2}\{\n {4}"id": "F002"[\s\S]*\},\n$/);
      await refused(engine, fs, { command: 'str_replace', path: '/memories/features.json', old_str: second, new_str: '' }, /would remove feature "F002"/);
    });

    it('refuses an insert that breaks the JSON', async () => {
      const { fs, engine } = setup();
      await refused(engine, fs, { command: 'insert', path: '/memories/features.json', insert_line: 1, insert_text: 'TODO\n' }, /would be invalid: it is not valid JSON/);
    });

    it('refuses delete and rename of the file', async () => {
      const { fs, engine } = setup();
      await refused(engine, fs, { command: 'delete', path: '/memories/features.json' }, /cannot be deleted, moved/);
      await refused(engine, fs, { command: 'rename', old_path: '/memories/features.json', new_path: '/memories/old-features.json' }, /cannot be deleted, moved/);
    });

    it('allows creating it when absent (valid only), and moving a valid checklist into place', async () => {
      const fs = new InMemoryFileSystem();
      const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards() });
      await refused(engine, fs, { command: 'create', path: '/memories/features.json', file_text: '{"features": []}' }, /must be a JSON array/);
      await allowed(engine, { command: 'create', path: '/memories/draft.json', file_text: FEATURES });
      await allowed(engine, { command: 'rename', old_path: '/memories/draft.json', new_path: '/memories/features.json' });
      assert.equal(fs.peekText('features.json'), FEATURES);
    });

    it('refuses moving an invalid file into place', async () => {
      const fs = new InMemoryFileSystem();
      fs.seed('draft.json', 'not json');
      const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards() });
      await refused(engine, fs, { command: 'rename', old_path: '/memories/draft.json', new_path: '/memories/features.json' }, /would be invalid/);
    });

    it('decides random whole-file rewrites (create over the file) exactly like the pure guard', async () => {
      await fc.assert(
        fc.asyncProperty(featureListArb(1), featureListArb(), async (before, after) => {
          const fs = new InMemoryFileSystem();
          fs.seed('features.json', formatFeatures(before));
          const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards(), createPolicy: 'overwrite' });
          const result = await engine.execute({ command: 'create', path: '/memories/features.json', file_text: formatFeatures(after) });
          const keepsHistory = before.every((b, i) => after[i] && JSON.stringify({ ...after[i], passes: b.passes }) === JSON.stringify(b));
          assert.equal(result.is_error, !keepsHistory, text(result));
          assert.equal(fs.peekText('features.json'), formatFeatures(keepsHistory ? after : before));
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('/memories/progress.md', () => {
    it('allows appending with insert at the last line and with str_replace of the last line', async () => {
      const { fs, engine } = setup();
      const n = PROGRESS.trimEnd().split('\n').length;
      await allowed(engine, { command: 'insert', path: '/memories/progress.md', insert_line: n, insert_text: '\n## 2026-12-01: Session 2\n- did F001\n' });
      await allowed(engine, { command: 'str_replace', path: '/memories/progress.md', old_str: '- did F001', new_str: '- did F001\n- and tested it' });
      assert.ok(fs.peekText('progress.md')?.startsWith(PROGRESS));
    });

    it('refuses rewriting earlier history', async () => {
      const { fs, engine } = setup();
      await refused(engine, fs, { command: 'str_replace', path: '/memories/progress.md', old_str: 'Nothing yet.', new_str: 'Everything works.' }, /append-only/);
      await refused(engine, fs, { command: 'insert', path: '/memories/progress.md', insert_line: 0, insert_text: 'Summary: done\n' }, /append-only/);
    });

    it('refuses delete and rename', async () => {
      const { fs, engine } = setup();
      await refused(engine, fs, { command: 'delete', path: '/memories/progress.md' }, /cannot be deleted or moved/);
      await refused(engine, fs, { command: 'rename', old_path: '/memories/progress.md', new_path: '/memories/archive/progress.md' }, /cannot be deleted or moved/);
    });
  });

  it('leaves other files free to change', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('features.json', FEATURES);
    fs.seed('notes/a.md', 'a');
    const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards() });
    // Unrelated files stay free to change.
    await allowed(engine, { command: 'delete', path: '/memories/notes' });
  });

  it('accepts the files the initializer writes', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards() });
    const files = buildInitialMemory({
      goal: '- add todos\n- list todos',
      now: new Date(2026, 10, 30),
      workspaceFiles: [],
      draftWithClaude: false,
      templates: { progress: '# Progress {{date}}\n{{goal}}\n{{features}}\n{{startup}}\n', startup: '# Startup {{date}}\n{{detected}}\n' },
    });
    for (const file of files) await allowed(engine, { command: 'create', path: `/memories/${file.path}`, file_text: file.text });
  });
});

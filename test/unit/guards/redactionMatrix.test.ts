/**
 * The redaction x guard matrix: the guards judge what will really be written (the redacted text
 * against the current text redacted the same way), so a secret-looking string in an earlier entry
 * never blocks appending to progress.md or flipping `passes`, while rewriting history stays refused
 * with redaction on and off alike.
 */
import * as assert from 'node:assert/strict';
import { MemoryEngine } from '../../../src/core/memory/engine';
import { createChecklistGuards } from '../../../src/core/session/guards';
import { formatFeatures, parseFeatures, type Feature } from '../../../src/core/session/features';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const OLD_SECRET = 'sk-ant-api03-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
const NEW_SECRET = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
const PROGRESS = `# Progress log\n\n## 2026-11-01\nGoal: ship it. The user pasted ${OLD_SECRET} here.\n`;
const feature = (id: string, description: string, passes = false): Feature => ({ id, category: 'functional', description, steps: [], passes });
const FEATURES = formatFeatures([feature('F001', `log in with ${OLD_SECRET}`), feature('F002', 'log out')]);

type Expect = 'allowed' | 'refused';
interface Row {
  name: string;
  file: 'progress.md' | 'features.json';
  input: object;
  /** Outcome with redaction on and off. */
  on: Expect;
  off: Expect;
  /** With redaction on and the call allowed: what must (not) be on disk afterwards. */
  onDisk?: { has?: string[]; hasNot?: string[] };
}

const P = '/memories/progress.md';
const F = '/memories/features.json';
const lastLine = PROGRESS.split('\n').length - 1;

const ROWS: Row[] = [
  { name: 'append a session to progress.md with insert (earlier secret)', file: 'progress.md', input: { command: 'insert', path: P, insert_line: lastLine, insert_text: '## 2026-11-02\nDid more.' }, on: 'allowed', off: 'allowed', onDisk: { has: ['## 2026-11-02', '[REDACTED:anthropic-api-key]'], hasNot: [OLD_SECRET] } },
  { name: 'append with str_replace of the last line (earlier secret)', file: 'progress.md', input: { command: 'str_replace', path: P, old_str: 'here.\n', new_str: 'here.\n\n## 2026-11-02\nMore.\n' }, on: 'allowed', off: 'allowed', onDisk: { has: ['More.'] } },
  { name: 'append a new secret to progress.md', file: 'progress.md', input: { command: 'insert', path: P, insert_line: lastLine, insert_text: `token ${NEW_SECRET}` }, on: 'allowed', off: 'allowed', onDisk: { has: ['[REDACTED:github-token]'], hasNot: [NEW_SECRET, OLD_SECRET] } },
  { name: 'rewrite the earlier entry of progress.md', file: 'progress.md', input: { command: 'str_replace', path: P, old_str: 'Goal: ship it.', new_str: 'Goal: done.' }, on: 'refused', off: 'refused' },
  { name: 'remove the earlier secret by hand-redacting it', file: 'progress.md', input: { command: 'str_replace', path: P, old_str: OLD_SECRET, new_str: '[REDACTED:anthropic-api-key]' }, on: 'allowed', off: 'refused' },
  { name: 'flip passes of the feature holding a secret', file: 'features.json', input: { command: 'str_replace', path: F, old_str: '"passes": false\n  },\n  {', new_str: '"passes": true\n  },\n  {' }, on: 'allowed', off: 'allowed', onDisk: { hasNot: [OLD_SECRET] } },
  { name: 'flip passes of another feature', file: 'features.json', input: { command: 'str_replace', path: F, old_str: '"description": "log out",\n    "steps": [],\n    "passes": false', new_str: '"description": "log out",\n    "steps": [],\n    "passes": true' }, on: 'allowed', off: 'allowed' },
  { name: 'append a new feature (not passing) whose text holds a secret', file: 'features.json', input: { command: 'create', path: F, file_text: formatFeatures([feature('F001', `log in with ${OLD_SECRET}`), feature('F002', 'log out'), feature('F003', `call the API with ${NEW_SECRET}`)]) }, on: 'allowed', off: 'allowed', onDisk: { has: ['F003', '[REDACTED:github-token]'], hasNot: [NEW_SECRET] } },
  { name: 'append a new feature already passing', file: 'features.json', input: { command: 'create', path: F, file_text: formatFeatures([feature('F001', `log in with ${OLD_SECRET}`), feature('F002', 'log out'), feature('F003', 'export', true)]) }, on: 'refused', off: 'refused' },
  { name: 'reword the feature holding a secret', file: 'features.json', input: { command: 'str_replace', path: F, old_str: `log in with ${OLD_SECRET}`, new_str: 'log in' }, on: 'refused', off: 'refused' },
];

describe('redaction x checklist guards', () => {
  for (const redactSecrets of [true, false]) {
    describe(`redaction ${redactSecrets ? 'on' : 'off'}`, () => {
      for (const row of ROWS) {
        const expected = redactSecrets ? row.on : row.off;
        it(`${expected === 'allowed' ? 'allows' : 'refuses'}: ${row.name}`, async () => {
          const fs = new InMemoryFileSystem();
          // Written by the initializer or by hand: the secret is already on disk.
          fs.seed('progress.md', PROGRESS);
          fs.seed('features.json', FEATURES);
          const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards(), redactSecrets, createPolicy: 'overwrite' });
          const before = fs.snapshot();
          const result = await engine.execute(row.input);
          const text = String(result.content);
          if (expected === 'refused') {
            assert.equal(result.is_error, true, `allowed: ${text}`);
            assert.match(text, /refused/);
            assert.deepEqual(fs.snapshot(), before);
            return;
          }
          assert.equal(result.is_error, false, text);
          const disk = fs.peekText(row.file)!;
          if (row.file === 'features.json') assert.ok(parseFeatures(disk).ok);
          if (redactSecrets) {
            for (const s of row.onDisk?.has ?? []) assert.ok(disk.includes(s), `missing ${s} in:\n${disk}`);
            for (const s of row.onDisk?.hasNot ?? []) assert.ok(!disk.includes(s), `still has ${s} in:\n${disk}`);
          } else {
            assert.ok(disk.includes(OLD_SECRET), 'with redaction off the earlier text stays verbatim');
          }
        });
      }
    });
  }

  it('a later append after an earlier one still passes (the redacted file is the new history)', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('progress.md', PROGRESS);
    const engine = new MemoryEngine(fs, { writeGuards: createChecklistGuards() });
    for (let i = 0; i < 3; i++) {
      const lines = fs.peekText('progress.md')!.split('\n').length - 1;
      const r = await engine.execute({ command: 'insert', path: P, insert_line: lines, insert_text: `## day ${i} ${NEW_SECRET}` });
      assert.equal(r.is_error, false, String(r.content));
    }
    assert.equal((fs.peekText('progress.md')!.match(/## day/g) ?? []).length, 3);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFeatureChecklistChange, checkProgressLogChange } from '../../../src/core/session/guards';
import { parseFeatures } from '../../../src/core/session/features';
import { featuresFromGoal } from '../../../src/core/session/initialFeatures';
import { buildInitialMemory, type InitialMemoryInput } from '../../../src/core/session/initialMemory';

const TEMPLATES = path.resolve(__dirname, '../../../../media/templates');
const templates = {
  progress: fs.readFileSync(path.join(TEMPLATES, 'progress.md'), 'utf8'),
  startup: fs.readFileSync(path.join(TEMPLATES, 'startup.md'), 'utf8'),
};
const input = (over: Partial<InitialMemoryInput> = {}): InitialMemoryInput => ({
  goal: 'A todo app.\n\n- add a todo\n- [ ] list todos\n2. delete a todo',
  now: new Date(2026, 10, 30, 9),
  workspaceFiles: [{ path: 'package.json', content: '{"scripts":{"test":"mocha"}}' }],
  draftWithClaude: false,
  templates,
  ...over,
});

describe('initial features from the goal', () => {
  it('turns each list item (bullets, checkboxes, numbers) into a failing feature with steps', () => {
    const features = featuresFromGoal('Intro\n- add a todo\n* [x] list todos\n 3) delete a todo\n');
    assert.deepEqual(features.map((f) => [f.id, f.description, f.passes]), [['F001', 'add a todo', false], ['F002', 'list todos', false], ['F003', 'delete a todo', false]]);
    assert.ok(features.every((f) => f.steps.length === 3 && f.category === 'functional'));
  });

  it('splits a goal without a list into what it enumerates (the placeholder\'s example goal is five features, not one catch-all)', () => {
    const example = 'A command-line todo app: add, list, complete and delete todos, stored in a JSON file';
    assert.deepEqual(featuresFromGoal(example).map((f) => [f.id, f.description]), [
      ['F001', 'Add todos'],
      ['F002', 'List todos'],
      ['F003', 'Complete todos'],
      ['F004', 'Delete todos'],
      ['F005', 'Stored in a JSON file'],
    ]);
    assert.deepEqual(featuresFromGoal('Build a CLI todo app. It stores todos in JSON.').map((f) => f.description), ['Build a CLI todo app.', 'It stores todos in JSON.']);
    assert.deepEqual(featuresFromGoal('A markdown linter').map((f) => f.description), ['A markdown linter'], 'one clause is one feature');
    assert.deepEqual(featuresFromGoal('   '), []);
    assert.equal(featuresFromGoal('x'.repeat(1000))[0].description.length, 300);
    assert.equal(featuresFromGoal(`An app: ${Array.from({ length: 30 }, (_, i) => `do thing ${i}`).join(', ')}`).length, 12, 'at most twelve');
  });
});

describe('initial memory files', () => {
  it('writes a valid checklist, a startup file from the workspace and a dated progress log', () => {
    const files = buildInitialMemory(input());
    assert.deepEqual(files.map((f) => f.path), ['features.json', 'startup.md', 'progress.md']);
    const [features, startup, progress] = files.map((f) => f.text);
    const parsed = parseFeatures(features);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.features.map((f) => f.description), ['add a todo', 'list todos', 'delete a todo']);
    assert.match(startup, /^# How to start and test this project\n\nDetected from the workspace files on 2026-11-30\./);
    assert.match(startup, /## package\.json \(npm\)\n- install: `npm install`\n- test: `npm test`/);
    assert.match(progress, /^# Progress log\n/);
    assert.match(progress, /## Project goal\n\n> A todo app\.\n>\n> - add a todo/);
    assert.match(progress, /## 2026-11-30: Project memory initialized\n\n### Current state\n/);
    assert.match(progress, /- F002: list todos\n/);
    assert.match(progress, /### Session log\n[\s\S]*### Next steps\n/);
    assert.match(progress, /startup\.md` \(commands from package\.json \(npm\)\)/);
  });

  it('starts from an empty checklist when Claude drafts it, and says so', () => {
    const files = buildInitialMemory(input({ draftWithClaude: true }));
    assert.equal(files[0].text, '[]\n');
    assert.match(files[2].text, /- none yet: the initializer conversation with Claude drafts them\./);
  });

  it('writes files the guards accept as a creation, and a log that later sessions can append to', () => {
    for (const draftWithClaude of [false, true]) {
      const [features, , progress] = buildInitialMemory(input({ draftWithClaude }));
      assert.equal(checkFeatureChecklistChange({ command: 'create', path: '/memories/features.json', before: undefined, after: features.text }), undefined);
      assert.equal(checkProgressLogChange({ command: 'create', path: '/memories/progress.md', before: undefined, after: progress.text }), undefined);
      assert.equal(checkProgressLogChange({ command: 'insert', path: '/memories/progress.md', before: progress.text, after: `${progress.text}\n## 2026-12-01: next\n` }), undefined);
    }
  });

  it('keeps a goal with template syntax as text', () => {
    const files = buildInitialMemory(input({ goal: 'Support {{date}} tokens' }));
    assert.match(files[2].text, /> Support \{\{date\}\} tokens/);
  });
});

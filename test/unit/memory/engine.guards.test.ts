import * as assert from 'node:assert/strict';
import type { ProposedChange, WriteGuard } from '../../../src/core/memory';
import { failsWith, forEachStore, ok } from './harness';

/** Records every change it is asked about and refuses those `refuse` picks. */
function recordingGuard(paths: string[], refuse: (c: ProposedChange) => boolean): WriteGuard & { seen: ProposedChange[] } {
  const seen: ProposedChange[] = [];
  return {
    paths,
    seen,
    check(change) {
      seen.push(change);
      return refuse(change) ? `Refused: ${change.command} of ${change.path} is not allowed.` : undefined;
    },
  };
}

forEachStore('write guards', (t) => {
  it('passes full before/after text for create, str_replace and insert, and may allow them', async () => {
    const guard = recordingGuard(['/memories/progress.md'], () => false);
    const engine = t.newEngine({ writeGuards: [guard] });
    ok(await engine.execute({ command: 'create', path: '/memories/progress.md', file_text: 'a\n' }));
    ok(await engine.execute({ command: 'str_replace', path: '/memories/progress.md', old_str: 'a', new_str: 'b' }));
    ok(await engine.execute({ command: 'insert', path: '/memories/progress.md', insert_line: 1, insert_text: 'c' }));
    ok(await engine.execute({ command: 'create', path: '/memories/other.md', file_text: 'unguarded' }));
    assert.deepEqual(guard.seen, [
      { command: 'create', path: '/memories/progress.md', before: undefined, after: 'a\n' },
      { command: 'str_replace', path: '/memories/progress.md', before: 'a\n', after: 'b\n' },
      { command: 'insert', path: '/memories/progress.md', before: 'b\n', after: 'b\nc\n' },
    ]);
  });

  it('sees the redacted text, and an overwrite sees the old content', async () => {
    await t.store.seed('g.md', 'old');
    const guard = recordingGuard(['/memories/g.md'], () => false);
    const engine = t.newEngine({ writeGuards: [guard], createPolicy: 'overwrite' });
    ok(await engine.execute({ command: 'create', path: '/memories/g.md', file_text: 'password=hunter22' }));
    assert.deepEqual(guard.seen, [{ command: 'create', path: '/memories/g.md', before: 'old', after: 'password=[REDACTED:password]' }]);
  });

  it('a refusal changes nothing and reaches the model as is_error with the guard sentence', async () => {
    await t.store.seed('features.json', '[1]');
    const guard = recordingGuard(['/memories/features.json'], () => true);
    const engine = t.newEngine({ writeGuards: [guard], createPolicy: 'overwrite' });
    const before = await t.store.snapshot();
    const inputs = [
      { command: 'create', path: '/memories/features.json', file_text: '[]' },
      { command: 'str_replace', path: '/memories/features.json', old_str: '1', new_str: '2' },
      { command: 'insert', path: '/memories/features.json', insert_line: 0, insert_text: 'x' },
      { command: 'delete', path: '/memories/features.json' },
      { command: 'rename', old_path: '/memories/features.json', new_path: '/memories/f2.json' },
    ];
    for (const input of inputs) {
      failsWith(await engine.execute(input), `Refused: ${input.command} of /memories/features.json is not allowed.`);
    }
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('refuses deleting a folder that contains the protected file, via any alias of that folder', async () => {
    await t.store.seed('project/plan/features.json', '[1]');
    await t.store.seed('project/notes.md', 'n');
    const guard = recordingGuard(['/memories/project/plan/features.json'], (c) => c.after === undefined);
    const engine = t.newEngine({ writeGuards: [guard] });
    const before = await t.store.snapshot();
    for (const p of ['/memories/project', '/memories/project/', '/memories//project/plan', '/memories/./project']) {
      failsWith(await engine.execute({ command: 'delete', path: p }), 'Refused: delete of /memories/project/plan/features.json is not allowed.');
    }
    assert.deepEqual(await t.store.snapshot(), before);
    assert.deepEqual(guard.seen[0], { command: 'delete', path: '/memories/project/plan/features.json', before: '[1]', after: undefined });
    // Deleting a sibling is not a change to the protected file.
    ok(await engine.execute({ command: 'delete', path: '/memories/project/notes.md' }));
  });

  it('refuses moving a folder that contains the protected file', async () => {
    await t.store.seed('project/features.json', '[1]');
    const guard = recordingGuard(['/memories/project/features.json'], () => true);
    const engine = t.newEngine({ writeGuards: [guard] });
    const before = await t.store.snapshot();
    failsWith(
      await engine.execute({ command: 'rename', old_path: '/memories/project', new_path: '/memories/archive' }),
      'Refused: rename of /memories/project/features.json is not allowed.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('consults the guard when a file or folder would move onto the protected path', async () => {
    await t.store.seed('draft/features.json', '[2]');
    await t.store.seed('draft.json', '[3]');
    const guard = recordingGuard(['/memories/plan/features.json'], (c) => c.before === undefined);
    const engine = t.newEngine({ writeGuards: [guard] });
    const before = await t.store.snapshot();
    failsWith(
      await engine.execute({ command: 'rename', old_path: '/memories/draft', new_path: '/memories/plan' }),
      'Refused: rename of /memories/plan/features.json is not allowed.',
    );
    failsWith(
      await engine.execute({ command: 'rename', old_path: '/memories/draft.json', new_path: '/memories/plan/features.json' }),
      'Refused: rename of /memories/plan/features.json is not allowed.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
    assert.deepEqual(guard.seen, [
      { command: 'rename', path: '/memories/plan/features.json', before: undefined, after: '[2]' },
      { command: 'rename', path: '/memories/plan/features.json', before: undefined, after: '[3]' },
    ]);
  });

  it('lets the first refusing guard speak and asks nothing about unrelated files', async () => {
    const a = recordingGuard(['/memories/x.md'], () => false);
    const b = recordingGuard(['/memories/x.md', '/memories/y.md'], () => true);
    const engine = t.newEngine({ writeGuards: [a, b] });
    failsWith(await engine.execute({ command: 'create', path: '/memories/x.md', file_text: 'x' }), 'Refused: create of /memories/x.md is not allowed.');
    ok(await engine.execute({ command: 'create', path: '/memories/z.md', file_text: 'z' }));
    assert.equal(a.seen.length, 1);
    assert.equal(b.seen.length, 1);
  });

  it('matches guarded paths regardless of case (macOS and Windows disks fold case)', async () => {
    await t.store.seed('plan/Features.json', '[1]');
    const guard = recordingGuard(['/memories/plan/Features.json'], () => true);
    const engine = t.newEngine({ writeGuards: [guard] });
    const before = await t.store.snapshot();
    failsWith(
      await engine.execute({ command: 'create', path: '/memories/PLAN/features.JSON', file_text: 'x' }),
      'Refused: create of /memories/plan/Features.json is not allowed.',
    );
    failsWith(await engine.execute({ command: 'delete', path: '/memories/plan' }), 'Refused: delete of /memories/plan/Features.json is not allowed.');
    failsWith(
      await engine.execute({ command: 'rename', old_path: '/memories/plan', new_path: '/memories/old-plan' }),
      'Refused: rename of /memories/plan/Features.json is not allowed.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
    assert.deepEqual(guard.seen.slice(0, 2), [
      { command: 'create', path: '/memories/plan/Features.json', before: undefined, after: 'x' },
      { command: 'delete', path: '/memories/plan/Features.json', before: '[1]', after: undefined },
    ]);
    // A look-alike folder that does not hold the protected file can go (on a case-sensitive disk).
    await t.store.seed('PLAN/other.md', 'o');
    ok(await engine.execute({ command: 'delete', path: '/memories/PLAN' }));
  });
});

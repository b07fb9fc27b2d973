import * as assert from 'node:assert/strict';
import { MemoryEngine } from '../../../src/core/memory';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import { failsWith, forEachStore, ok } from './harness';

const j = (...parts: string[]) => parts.join('');

forEachStore('limits: per-file size cap', (t) => {
  it('refuses a create, str_replace or insert whose result exceeds maxFileBytes, changing nothing', async () => {
    const engine = t.newEngine({ maxFileBytes: 100 });
    await t.store.seed('f.md', 'START' + 'x'.repeat(85));
    const before = await t.store.snapshot();
    failsWith(
      await engine.execute({ command: 'create', path: '/memories/new/big.md', file_text: 'y'.repeat(101) }),
      'Error: Writing /memories/new/big.md would make it 101B, over the per-file limit of 100B. Nothing was written; split the content across several files.',
    );
    failsWith(
      await engine.execute({ command: 'str_replace', path: '/memories/f.md', old_str: 'START', new_str: 'y'.repeat(20) }),
      'Error: Writing /memories/f.md would make it 105B, over the per-file limit of 100B. Nothing was written; split the content across several files.',
    );
    failsWith(
      await engine.execute({ command: 'insert', path: '/memories/f.md', insert_line: 0, insert_text: 'z'.repeat(10) }),
      'Error: Writing /memories/f.md would make it 101B, over the per-file limit of 100B. Nothing was written; split the content across several files.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
    // Exactly at the limit is fine; multi-byte characters count as bytes.
    ok(await engine.execute({ command: 'create', path: '/memories/exact.md', file_text: 'é'.repeat(50) }));
  });

  it('defaults to 1 MiB per file', async () => {
    failsWith(
      await t.run({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(1024 * 1024 + 1) }),
      'Error: Writing /memories/big.md would make it 1.1M, over the per-file limit of 1.0M. Nothing was written; split the content across several files.',
    );
    ok(await t.run({ command: 'create', path: '/memories/ok.md', file_text: 'x'.repeat(1024 * 1024) }));
  });
});

forEachStore('limits: store quota', (t) => {
  it('refuses writes that would cross the quota and changes nothing; shrinking writes and deletes always work', async () => {
    const engine = t.newEngine({ quotaBytes: 1000 });
    await t.store.seed('a.md', 'a'.repeat(600));
    await t.store.seed('b.md', 'b'.repeat(300));
    const before = await t.store.snapshot();
    failsWith(
      await engine.execute({ command: 'create', path: '/memories/c.md', file_text: 'c'.repeat(101) }),
      'Error: This write would bring the memory store to 1001B, over its quota of 1000B. Nothing was written; delete or shorten memory files first.',
    );
    failsWith(
      await engine.execute({ command: 'insert', path: '/memories/b.md', insert_line: 0, insert_text: 'x'.repeat(100) }),
      'Error: This write would bring the memory store to 1001B, over its quota of 1000B. Nothing was written; delete or shorten memory files first.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
    ok(await engine.execute({ command: 'create', path: '/memories/c.md', file_text: 'c'.repeat(99) }));
    ok(await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'a'.repeat(600), new_str: 'short' }));
    // The cached total followed the shrink: 595 bytes are free again.
    ok(await engine.execute({ command: 'create', path: '/memories/d.md', file_text: 'd'.repeat(590) }));
    ok(await engine.execute({ command: 'delete', path: '/memories/d.md' }));
    ok(await engine.execute({ command: 'create', path: '/memories/e.md', file_text: 'e'.repeat(590) }));
  });
});

describe('limits: the quota does not walk the store on every write', () => {
  it('measures a 2,000-file store once, then keeps the total by deltas', async () => {
    const fs = new InMemoryFileSystem();
    for (let i = 0; i < 2000; i++) fs.seed(`d${i % 20}/f${i}.md`, 'x'.repeat(10));
    let now = 0;
    const engine = new MemoryEngine(fs, { quotaBytes: 20_000 + 500, now: () => now });
    for (let i = 0; i < 50; i++) {
      assert.equal((await engine.execute({ command: 'create', path: `/memories/new/n${i}.md`, file_text: 'y'.repeat(8) + 'AB' })).is_error, false);
    }
    assert.equal(engine.quotaMeasurements, 1);
    const listingsBefore = fs.count('readDirectory');
    for (let i = 0; i < 20; i++) {
      ok(await engine.execute({ command: 'str_replace', path: `/memories/new/n${i}.md`, old_str: 'AB', new_str: 'A' }));
    }
    assert.equal(fs.count('readDirectory'), listingsBefore, 'str_replace must not list folders');
    // 2,000×10 + 50×10 − 20 = 20,480 bytes: 20 left, a 21-byte file must be refused by deltas alone.
    failsWith(
      await engine.execute({ command: 'create', path: '/memories/x.md', file_text: 'z'.repeat(21) }),
      'Error: This write would bring the memory store to 20501 bytes, over its quota of 20500 bytes. Nothing was written; delete or shorten memory files first.',
    );
    assert.equal(engine.quotaMeasurements, 2, 'a refusal re-measures once to rule out a stale total');
    ok(await engine.execute({ command: 'create', path: '/memories/x.md', file_text: 'z'.repeat(20) }));
    assert.equal(engine.quotaMeasurements, 2);
    // After the recheck interval a growing write measures again (others may have changed files).
    now += 61_000;
    await engine.execute({ command: 'delete', path: '/memories/x.md' });
    ok(await engine.execute({ command: 'create', path: '/memories/y.md', file_text: 'z' }));
    assert.equal(engine.quotaMeasurements, 3);
  });

  it('notices files removed behind its back instead of refusing on a stale total', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('big.md', 'x'.repeat(900));
    const engine = new MemoryEngine(fs, { quotaBytes: 1000, now: () => 0 });
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'a'.repeat(50) }));
    await fs.delete('big.md', { recursive: false });
    ok(await engine.execute({ command: 'create', path: '/memories/b.md', file_text: 'b'.repeat(500) }));
  });
});

forEachStore('redaction on write', (t) => {
  const key = j('sk-', 'ant-api03-', 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY');
  const gh = j('gh', 'p_', 'A1'.repeat(18));

  it('create: secrets never reach disk and the result says what was redacted', async () => {
    const result = await t.run({ command: 'create', path: '/memories/env.md', file_text: `ANTHROPIC=${key}\npassword=hunter22\nGH ${gh} and ${gh}\n` });
    assert.equal(
      ok(result),
      'File created successfully at: /memories/env.md\nNote: secrets were replaced with [REDACTED:<kind>] placeholders before writing (1 anthropic-api-key, 1 password, 2 github-token); store references to secrets, never the secrets themselves.',
    );
    assert.equal(
      await t.store.peekText('env.md'),
      'ANTHROPIC=[REDACTED:anthropic-api-key]\npassword=[REDACTED:password]\nGH [REDACTED:github-token] and [REDACTED:github-token]\n',
    );
  });

  it('str_replace and insert: the final text is redacted, also a secret assembled across the edit', async () => {
    await t.store.seed('n.md', 'intro\npassword=\nend\n');
    const text = ok(await t.run({ command: 'str_replace', path: '/memories/n.md', old_str: 'password=\n', new_str: 'password=hunter22\n' }));
    assert.match(text, /^The memory file has been edited\./);
    assert.match(text, /\(1 password\)/);
    assert.doesNotMatch(text, /hunter22/);
    assert.equal(await t.store.peekText('n.md'), 'intro\npassword=[REDACTED:password]\nend\n');
    assert.match(ok(await t.run({ command: 'insert', path: '/memories/n.md', insert_line: 1, insert_text: `key ${key}` })), /\(1 anthropic-api-key\)/);
    assert.equal(await t.store.peekText('n.md'), 'intro\nkey [REDACTED:anthropic-api-key]\npassword=[REDACTED:password]\nend\n');
  });

  it('writes ordinary text without a note, and redaction can be switched off', async () => {
    assert.equal(ok(await t.run({ command: 'create', path: '/memories/p.md', file_text: 'The password policy needs 12 characters.\n' })), 'File created successfully at: /memories/p.md');
    const engine = t.newEngine({ redactSecrets: false });
    assert.equal(ok(await engine.execute({ command: 'create', path: '/memories/raw.md', file_text: `k=${key}` })), 'File created successfully at: /memories/raw.md');
    assert.equal(await t.store.peekText('raw.md'), `k=${key}`);
  });
});

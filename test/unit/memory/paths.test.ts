import * as assert from 'node:assert/strict';
import { MemoryError, parseMemoryPath } from '../../../src/core/memory';

function refusal(raw: unknown): string {
  try {
    parseMemoryPath(raw);
  } catch (e) {
    assert.ok(e instanceof MemoryError, `expected a MemoryError for ${JSON.stringify(raw)}`);
    return e.modelText;
  }
  assert.fail(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('parseMemoryPath', () => {
  it('maps the root and its aliases to the root', () => {
    for (const alias of ['/memories', '/memories/', '/memories//', '/memories/.', '/memories/./', '/memories/.//./']) {
      assert.deepEqual(parseMemoryPath(alias), { rel: '', display: '/memories', isRoot: true }, alias);
    }
  });

  it('canonicalises empty and . segments below the root', () => {
    assert.deepEqual(parseMemoryPath('/memories//a/./b/'), { rel: 'a/b', display: '/memories/a/b', isRoot: false });
  });

  it('keeps ordinary names, including unicode, spaces, dots inside names and a lone %', () => {
    for (const name of ['notes.md', 'é 中文 notes.md', 'v1.2...final', '100% done.md', 'a%zz', '.hidden', 'node_modules', '%41.md', '.~tmp', 'console.md', 'null.md', 'com10.md', 'auxiliary']) {
      assert.equal(parseMemoryPath(`/memories/${name}`).rel, name);
    }
  });

  it('is separator-aware about the /memories prefix', () => {
    for (const raw of ['/memoriesX', '/memoriesX/a', '/memories_backup/a', '/memories-old', 'memories/a', '/Memories/a', '/', '', '/etc/passwd', 'a.md']) {
      assert.match(refusal(raw), /is outside the memory directory; every path must start with \/memories\/\.$/, raw);
    }
  });

  it('refuses every .. segment, even one that would stay inside', () => {
    for (const raw of ['/memories/..', '/memories/../secrets.env', '/memories/../../secrets.env', '/memories/a/../b', '/memories/a/..', '/memories/a/b/../../c']) {
      assert.equal(refusal(raw), `Error: The path ${raw} contains a \`..\` segment; paths may not step out of their folder.`);
    }
  });

  it('refuses backslashes', () => {
    for (const raw of ['/memories\\..\\x', '/memories/a\\b', '/memories/..\\..\\etc']) {
      assert.match(refusal(raw), /contains a backslash/);
    }
  });

  it('refuses percent-encoded dots, slashes, backslashes, control bytes and double encodings', () => {
    for (const raw of ['/memories/%2e%2e/x', '/memories/%2E%2E%2Fsecrets', '/memories/a%2fb', '/memories/%5c', '/memories/%252e%252e', '/memories/%00', '/memories/%0a', '/memories/%c0%ae%c0%ae', '/memories/..%2f']) {
      assert.match(refusal(raw), /percent-encoded/, raw);
    }
  });

  it('refuses NUL, control characters and line separators, echoing them escaped', () => {
    assert.equal(refusal('/memories/a\u0000b'), 'Error: The path /memories/a\\u0000b contains a control character.');
    for (const raw of ['/memories/a\nb', '/memories/a\rb', '/memories/\tx', '/memories/x\u007f', '/memories/x\u0085', '/memories/x\u2028']) {
      assert.match(refusal(raw), /contains a control character\.$/);
    }
  });

  it('refuses characters Windows cannot store', () => {
    for (const raw of ['/memories/a:b', '/memories/a|b', '/memories/x?.md', '/memories/*.md', '/memories/<a>', '/memories/"q"', '/memories/nul', '/memories/CON.md', '/memories/d/com1.txt', '/memories/LPT9']) {
      assert.match(refusal(raw), /not allowed in memory file names/);
    }
  });

  it('refuses names ending in a dot or a space (Windows would alias them)', () => {
    for (const raw of ['/memories/a.md.', '/memories/a.md ', '/memories/dir./x', '/memories/...']) {
      assert.match(refusal(raw), /has a name ending in a dot or a space/, raw);
    }
  });

  it('refuses over-long paths and names', () => {
    assert.equal(refusal('/memories/' + 'a/'.repeat(600)), 'Error: The path is longer than 1024 characters.');
    assert.match(refusal('/memories/' + 'n'.repeat(256)), /has a name longer than 255 bytes/);
    assert.match(refusal('/memories/' + 'é'.repeat(128)), /has a name longer than 255 bytes/);
    assert.equal(parseMemoryPath('/memories/' + 'n'.repeat(255)).rel.length, 255);
  });

  it('refuses the engine temp-file prefix', () => {
    assert.match(refusal('/memories/.~tmp-abc'), /reserved for the memory tool's temporary files/);
    assert.match(refusal('/memories/d/.~tmp-x/y'), /reserved/);
    assert.match(refusal('/memories/.~TMP-x'), /reserved/);
  });

  it('refuses non-strings naming the parameter', () => {
    assert.equal(refusal(undefined), 'Error: Parameter `path` must be a string path starting with /memories.');
    assert.equal(refusal(['/memories']), 'Error: Parameter `path` must be a string path starting with /memories.');
  });
});

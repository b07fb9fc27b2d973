import * as assert from 'node:assert/strict';
import { memoryPathOfResourceUri, resourceUriOf } from '../../../src/cli/mcp/resourceUris';

describe('memory resource URIs', () => {
  it('round-trip tool paths, encoding each segment', () => {
    for (const p of ['/memories/a.md', '/memories/notes/a b.md', '/memories/ü/#1?.md', '/memories/100%.md']) {
      assert.equal(memoryPathOfResourceUri(resourceUriOf(p)), p, p);
    }
    assert.equal(resourceUriOf('/memories/notes/a b.md'), 'memory:///memories/notes/a%20b.md');
  });

  it('refuse other schemes, hosts, queries, paths outside /memories and bad escapes', () => {
    for (const uri of ['file:///memories/a.md', 'memory://host/memories/a.md', 'memory:///memories/a.md?x=1', 'memory:///memories/a.md#f', 'memory:///etc/passwd', 'memory:///memories/../etc/passwd', 'memory:///memoriesX/a', 'memory:///memories/%E0%A4%A', 'not a uri']) {
      assert.equal(memoryPathOfResourceUri(uri), undefined, uri);
    }
  });
});

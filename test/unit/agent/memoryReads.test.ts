import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { memoryFileReadOf, memoryReadsNote } from '../../../src/core/agent/memoryReads';
import { MemoryAgentTool } from '../../../src/core/agent/memoryTool';
import { tempStore } from './helpers';

const view = (path: string, target: 'file' | 'directory', extra: Partial<Extract<AgentEvent, { type: 'tool_end' }>> = {}): AgentEvent => ({
  type: 'tool_end', id: path, command: 'view', path, is_error: false, summary: '', touched: { kind: 'read', path }, detail: { kind: 'memoryRead', target }, ...extra,
});

describe('"Read N memory files" note', () => {
  it('counts successful memory views of files only', () => {
    assert.equal(memoryFileReadOf(view('/memories/progress.md', 'file')), '/memories/progress.md');
    assert.equal(memoryFileReadOf(view('/memories', 'directory')), undefined, 'a directory listing is not a file read');
    assert.equal(memoryFileReadOf(view('/memories/x.md', 'file', { is_error: true })), undefined);
    assert.equal(memoryFileReadOf(view('/memories/x.md', 'file', { tool: 'str_replace_based_edit_tool' })), undefined);
    assert.equal(memoryFileReadOf({ type: 'tool_start', id: 'a', command: 'view', path: '/memories/x.md' }), undefined);
  });

  it('names the files relative to /memories, each once, the rest counted', () => {
    assert.equal(memoryReadsNote(['/memories/progress.md']), 'Read 1 memory file: progress.md');
    assert.equal(
      memoryReadsNote(['/memories/progress.md', '/memories/startup.md', '/memories/progress.md', '/memories/features.json']),
      'Read 3 memory files: progress.md, startup.md, features.json',
    );
    const seven = Array.from({ length: 7 }, (_, i) => `/memories/notes/n${i}.md`);
    assert.equal(memoryReadsNote(seven), 'Read 7 memory files: notes/n0.md, notes/n1.md, notes/n2.md, notes/n3.md, notes/n4.md and 2 more');
  });

  it('the memory tool marks a view as a file or a directory read from the engine\'s real results', async () => {
    const store = await tempStore();
    try {
      const tool = new MemoryAgentTool(store.engine);
      const context = { toolUseId: 't', onOutput: () => undefined };
      await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'hello\n' }, context);
      assert.deepEqual((await tool.execute({ command: 'view', path: '/memories/a.md' }, context)).detail, { kind: 'memoryRead', target: 'file' });
      assert.deepEqual((await tool.execute({ command: 'view', path: '/memories' }, context)).detail, { kind: 'memoryRead', target: 'directory' });
      assert.equal((await tool.execute({ command: 'view', path: '/memories/missing.md' }, context)).detail, undefined);
    } finally {
      store.cleanup();
    }
  });
});

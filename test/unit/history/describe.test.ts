/** History in words: every writer gets a name a person recognises, every op a verb. */
import * as assert from 'node:assert/strict';
import { AUTHORS, authorSubject, describeAuthor, describeChange, describeOp, mcpAuthor, type HistoryEntry } from '../../../src/core/memory';

const entry = (op: HistoryEntry['op'], extra: Partial<HistoryEntry> = {}): Pick<HistoryEntry, 'op' | 'oldPath' | 'restoredFrom' | 'author'> => ({
  op,
  author: AUTHORS.user,
  ...extra,
});

describe('history in words', () => {
  it('names every author of the AUTHORS table, the engine default and MCP clients', () => {
    assert.equal(describeAuthor({ name: 'chat', session: 's1', turn: 3, title: 'Fix login' }), "Claude, chat 'Fix login'");
    assert.equal(describeAuthor(AUTHORS.chat), 'Claude, in the chat');
    assert.equal(describeAuthor({ name: 'agent' }), 'Claude');
    assert.equal(describeAuthor(AUTHORS.user), 'You');
    assert.equal(describeAuthor(AUTHORS.run), 'claude-memory run');
    assert.equal(describeAuthor(AUTHORS.exec), 'claude-memory exec');
    assert.equal(describeAuthor(AUTHORS.lmTool), 'Copilot (language model tool)');
    assert.equal(describeAuthor(AUTHORS.expiry), 'Memory expiry (unused file)');
    assert.equal(describeAuthor(mcpAuthor('Claude Code')), "MCP client 'Claude Code'");
    assert.equal(describeAuthor(mcpAuthor(undefined)), 'An MCP client');
  });

  it('quotes names from outside on one short line', () => {
    assert.equal(describeAuthor({ name: 'chat', title: 'line one\nline two' }), "Claude, chat 'line oneline two'");
    const long = describeAuthor({ name: 'chat', title: 'x'.repeat(200) });
    assert.equal(long, `Claude, chat '${'x'.repeat(59)}…'`);
    assert.equal(authorSubject({ name: 'some-future-writer' }), "'some-future-writer'");
    assert.equal(describeAuthor({ name: 'chat', title: '   ' }), 'Claude, in the chat');
  });

  it('says what each op did, with the old path of a move and the source of a restore', () => {
    assert.equal(describeOp(entry('create')), 'created');
    for (const op of ['str_replace', 'insert', 'edit'] as const) assert.equal(describeOp(entry(op)), 'edited');
    assert.equal(describeOp(entry('delete')), 'deleted');
    assert.equal(describeOp(entry('rename', { oldPath: 'notes/a.md' })), 'moved from /memories/notes/a.md');
    assert.equal(describeOp(entry('restore', { restoredFrom: 3 })), 'restored v3');
  });

  it('puts writer and verb together for a version\'s label', () => {
    assert.equal(describeChange(entry('edit')), 'You edited');
    assert.equal(describeChange(entry('str_replace', { author: { name: 'chat', title: 'x' } })), 'Claude edited');
    assert.equal(describeChange(entry('create', { author: AUTHORS.run })), 'claude-memory run created');
    assert.equal(describeChange(entry('restore', { restoredFrom: 7 })), 'You restored v7');
    assert.equal(describeChange(entry('delete', { author: AUTHORS.lmTool })), 'Copilot deleted');
  });
});

import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { ChatTranscript } from '../../../src/features/chat/chatTranscript';
import { ToolEntryFolders } from '../../../src/features/chat/toolEntryFolders';

interface Folder {
  readonly name: string;
}
const one: Folder = { name: 'one' };
const two: Folder = { name: 'two' };

/** One send in `folder`: every patch goes through record(), as the controller does it. */
function send(t: ChatTranscript, folders: ToolEntryFolders<Folder>, folder: Folder, events: AgentEvent[]): void {
  folders.record(t.begin('prompt', 'claude-sonnet-4-5'), folder);
  for (const event of events) folders.record(t.apply(event), folder);
}

function toolIds(t: ChatTranscript): string[] {
  return t.snapshot().entries.filter((e) => e.kind === 'tool').map((e) => e.id);
}

const writeCall: AgentEvent[] = [
  { type: 'text', text: 'Writing.' },
  { type: 'tool_start', id: 'toolu_1', command: 'create', path: '/memories/a.md' },
  { type: 'tool_end', id: 'toolu_1', command: 'create', path: '/memories/a.md', is_error: false, summary: 'created' },
];

describe('tool cards remember the folder their call ran in', () => {
  it('records tool cards only, each with the folder of its own send', () => {
    const t = new ChatTranscript();
    const folders = new ToolEntryFolders<Folder>();
    send(t, folders, two, writeCall);
    // A scripted server reuses the tool_use id in the next send; the card is a new one.
    send(t, folders, one, writeCall);
    const [first, second] = toolIds(t);
    assert.ok(first && second && first !== second);
    assert.equal(folders.folderOf(first), two);
    assert.equal(folders.folderOf(second), one);
    assert.equal(folders.size, 2, 'user, assistant and other rows are not recorded');
    const userRow = t.snapshot().entries.find((e) => e.kind === 'user');
    assert.equal(folders.folderOf(userRow!.id), undefined);
  });

  it('keeps the first folder of a card when later patches update it', () => {
    const t = new ChatTranscript();
    const folders = new ToolEntryFolders<Folder>();
    folders.record(t.begin('prompt', 'claude-sonnet-4-5'), two);
    folders.record(t.apply({ type: 'tool_start', id: 'toolu_1', command: 'view', path: '/memories' }), two);
    // Not a real controller sequence (a send stays in its folder), but the rule must hold anyway.
    folders.record(t.apply({ type: 'tool_end', id: 'toolu_1', command: 'view', path: '/memories', is_error: false, summary: 'listed' }), one);
    assert.equal(folders.folderOf(toolIds(t)[0]), two);
  });

  it('resolves a card to its recorded folder\'s store, not the current one', () => {
    const t = new ChatTranscript();
    const folders = new ToolEntryFolders<Folder>();
    send(t, folders, two, writeCall);
    const lookup = folders.storeFor(toolIds(t)[0], (f) => `store of ${f.name}`, () => 'store of one');
    assert.deepEqual(lookup, { ok: true, store: 'store of two' });
  });

  it('refuses, with the folder\'s name, when the recorded folder is gone', () => {
    const t = new ChatTranscript();
    const folders = new ToolEntryFolders<Folder>();
    send(t, folders, two, writeCall);
    const lookup = folders.storeFor(toolIds(t)[0], (f) => (f === two ? undefined : `store of ${f.name}`), () => 'store of one');
    assert.equal(lookup.ok, false);
    assert.match(lookup.ok ? '' : lookup.reason, /"two" .* no longer open/);
  });

  it('falls back to the current store for unknown cards, and after clear()', () => {
    const t = new ChatTranscript();
    const folders = new ToolEntryFolders<Folder>();
    send(t, folders, two, writeCall);
    const id = toolIds(t)[0];
    folders.clear();
    assert.equal(folders.size, 0);
    assert.deepEqual(folders.storeFor(id, (f) => `store of ${f.name}`, () => 'store of one'), { ok: true, store: 'store of one' });
    assert.deepEqual(folders.storeFor('e999', (f) => `store of ${f.name}`, () => 'store of one'), { ok: true, store: 'store of one' });
    const none = folders.storeFor('e999', (f) => `store of ${f.name}`, () => undefined);
    assert.equal(none.ok, false);
  });
});

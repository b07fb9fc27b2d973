/**
 * The change summary's Undo (one file, or Undo All) marks the edit cards of the files it undid as
 * undone, the same state a card's own Undo leaves: the chat's parts wired as the controller wires
 * them (createChatParts), a real checkpoint store (git in a temp folder) and a real memory engine.
 */
import * as assert from 'node:assert/strict';
import { ChatAttachments } from '../../../src/features/chat/chatAttachments';
import { createChatParts, type ChatParts } from '../../../src/features/chat/chatParts';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import type { ChangeSummaryPort } from '../../../src/features/chat/changeSummary';
import type { ChatEntry } from '../../../src/features/chat/shared/protocol';
import { makeWorkspace, type Workspace } from '../checkpoints/checkpointSupport';
import { summaryMemoryOf } from './summaryMemory';
import { fakePort, type FakePort } from './fakeChatPort';

const MODEL = 'claude-test-model';

describe('change summary Undo marks the edit cards of the files it undid', () => {
  let ws: Workspace;
  let port: FakePort;
  let transcript: ChatTranscript;
  let parts: ChatParts;
  let patches: ChatPatch[];

  beforeEach(async () => {
    ws = await makeWorkspace();
    ws.write('src/app.js', 'const a = 1;\n');
    ws.write('src/other.js', 'other\n');
    port = fakePort();
    port.checkpointStore = ws.store;
    const folder = port.folders[0].uri.toString();
    const summaryPort: ChangeSummaryPort = {
      checkpoints: (f) => (f === folder ? Promise.resolve(ws.store) : undefined),
      memory: (f) => (f === folder ? summaryMemoryOf(ws) : undefined),
      confirm: async () => true,
      log: { info: () => undefined, warn: () => undefined },
    };
    const env = { ...port, changeSummary: summaryPort };
    transcript = new ChatTranscript();
    patches = [];
    parts = createChatParts(env, {
      transcript,
      attachments: new ChatAttachments(env.pathOf),
      edits: env.createEdits(),
      emit: (p) => void patches.push(...p),
      newChat: async () => undefined,
    });
  });
  afterEach(() => {
    parts.persistence.dispose();
    ws.cleanup();
  });

  /** A user message with its checkpoint (as a send takes it), then an answer whose editor calls change `files`. */
  async function messageEditing(text: string, files: Record<string, string>): Promise<string> {
    transcript.begin(text, MODEL);
    await parts.rewinds.recordCheckpoint(port.folders[0], text);
    const user = transcript.snapshot().entries.filter((e) => e.kind === 'user').at(-1)!;
    let n = 0;
    for (const [rel, after] of Object.entries(files)) {
      const before = ws.read(rel).toString();
      ws.write(rel, after);
      const id = `toolu_${text.length}_${n++}`;
      transcript.apply({ type: 'tool_end', id, tool: 'str_replace_based_edit_tool', command: 'str_replace', path: rel, is_error: false, summary: `edited ${rel}`, detail: { kind: 'edit', path: rel, before, after } });
    }
    transcript.apply({ type: 'done', stop_reason: 'end_turn' });
    return user.id;
  }

  const cards = (): Array<Extract<ChatEntry, { kind: 'tool' }>> => transcript.snapshot().entries.filter((e): e is Extract<ChatEntry, { kind: 'tool' }> => e.kind === 'tool');
  const undoneOf = (rel: string): boolean[] => cards().filter((c) => c.edit?.path === rel).map((c) => c.edit?.undone === true);

  it('one file: its cards in the message show undone (and the webview is sent them); the other file\'s card does not', async () => {
    await messageEditing('Fix the app', { 'src/app.js': 'const a = 2;\n', 'src/other.js': 'changed\n' });
    await parts.changes.refresh();
    assert.equal(parts.changes.view?.files, 2);
    patches.length = 0;
    assert.equal((await parts.changes.undo('file', 'src/app.js')).ok, true);
    assert.equal(ws.read('src/app.js').toString(), 'const a = 1;\n');
    assert.deepEqual(undoneOf('src/app.js'), [true]);
    assert.deepEqual(undoneOf('src/other.js'), [false]);
    const sent = patches.flatMap((p) => (p.type === 'entry' && p.entry.kind === 'tool' ? [p.entry] : []));
    assert.deepEqual(sent.map((e) => [e.edit?.path, e.edit?.undone]), [['src/app.js', true]]);
    const card = cards().find((c) => c.edit?.path === 'src/app.js')!;
    assert.deepEqual(card.edit, { path: 'src/app.js', added: 1, removed: 1, undone: true }, 'the state of the card\'s own Undo');
  });

  it('Undo All: every undone file\'s cards since the summary\'s message; a card of an earlier, reviewed message stays as it was', async () => {
    await messageEditing('First', { 'src/other.js': 'first\n' });
    await parts.changes.refresh();
    assert.equal((await parts.changes.keepAll()).ok, true);
    // Nothing left to review: the next message's checkpoint is the new base.
    await messageEditing('Second', { 'src/app.js': 'const a = 3;\n', 'src/other.js': 'second\n' });
    await messageEditing('Third', { 'src/app.js': 'const a = 4;\n' });
    await parts.changes.refresh();
    assert.equal((await parts.changes.undoAll()).ok, true);
    assert.equal(ws.read('src/app.js').toString(), 'const a = 1;\n');
    assert.equal(ws.read('src/other.js').toString(), 'first\n');
    assert.deepEqual(undoneOf('src/app.js'), [true, true]);
    assert.deepEqual(undoneOf('src/other.js'), [false, true], 'the first message\'s card was kept, not undone');
  });
});

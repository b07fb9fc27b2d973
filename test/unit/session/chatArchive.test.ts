import * as assert from 'node:assert/strict';
import { SECRET_FORMATS } from '../../support/secretFormats';
import { ChatArchive, chatTitle, MAX_CHATS, TITLE_CHARS, type ChatBlobs, type StoredChat } from '../../../src/core/session/chatArchive';

/** Blobs in a map, as the extension's workspace storage holds them. */
function memoryBlobs(): ChatBlobs & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    read: async (name) => files.get(name),
    write: async (name, text) => void files.set(name, text),
    delete: async (name) => void files.delete(name),
  };
}

type Transcript = { rows: string[] };
const parse = (value: unknown): Transcript | undefined =>
  typeof value === 'object' && value !== null && Array.isArray((value as Transcript).rows) ? (value as Transcript) : undefined;

function chat(n: number, updated = n): StoredChat<Transcript> {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return { id, title: `chat ${n}`, created: n, updated, folder: 'file:///ws', folderName: 'ws', turns: 1, transcript: { rows: [`row ${n}`] }, history: [{ role: 'user', content: `q${n}` }] };
}

describe('chat archive (Chat History)', () => {
  it('keeps chats across a new archive on the same storage (a window reload), the current one marked', async () => {
    const blobs = memoryBlobs();
    const before = new ChatArchive(blobs, parse);
    await before.save(chat(1));
    await before.save(chat(2), { current: true });

    const after = new ChatArchive(blobs, parse);
    assert.equal(await after.current(), chat(2).id);
    assert.deepEqual((await after.list()).map((c) => c.title), ['chat 2', 'chat 1'], 'newest first');
    assert.deepEqual(await after.load(chat(1).id), chat(1));
  });

  it(`keeps at most ${MAX_CHATS} chats: saving one more drops the least recently updated, file and all`, async () => {
    const blobs = memoryBlobs();
    const archive = new ChatArchive(blobs, parse);
    for (let n = 1; n <= MAX_CHATS + 3; n++) await archive.save(chat(n));
    const list = await archive.list();
    assert.equal(list.length, MAX_CHATS);
    assert.equal(list.at(-1)?.title, 'chat 4');
    assert.equal(await archive.load(chat(3).id), undefined);
    assert.equal(blobs.files.size, MAX_CHATS + 1, 'one file per chat plus the index');
    assert.ok(!blobs.files.has(`${chat(1).id}.json`));

    // Updating an old chat moves it to the top instead of dropping it.
    await archive.save({ ...chat(4), updated: 1_000 });
    assert.equal((await archive.list())[0].title, 'chat 4');
  });

  it('deletes a chat; an unreadable chat file leaves the list instead of breaking it', async () => {
    const blobs = memoryBlobs();
    const archive = new ChatArchive(blobs, parse);
    await archive.save(chat(1), { current: true });
    await archive.save(chat(2));
    assert.equal(await archive.remove(chat(1).id), true);
    assert.equal(await archive.remove(chat(1).id), false);
    assert.equal(await archive.current(), undefined, 'the deleted chat is no longer current');
    blobs.files.set(`${chat(2).id}.json`, '{"not": "a chat"');
    assert.equal(await archive.load(chat(2).id), undefined);
    assert.deepEqual(await archive.list(), []);
  });

  it('starts empty on a broken index, and refuses ids that are not file-name safe', async () => {
    const blobs = memoryBlobs();
    blobs.files.set('index.json', '[[[');
    const archive = new ChatArchive(blobs, parse);
    assert.deepEqual(await archive.list(), []);
    await assert.rejects(archive.save({ ...chat(1), id: '../escape' }));
    assert.ok(![...blobs.files.keys()].some((k) => k.includes('..')));
  });

  it('titles a chat by its first message: one line, at most ~50 characters, cut at a word', () => {
    assert.equal(chatTitle('  Fix the login\n form  '), 'Fix the login form');
    const long = chatTitle('Please look at the failing tests in the payment module and tell me why they fail');
    assert.ok(long.length <= TITLE_CHARS, long);
    assert.equal(long, 'Please look at the failing tests in the payment…');
    assert.equal(chatTitle(''), 'Untitled chat');
  });

  it('writes no secret down: title, transcript and API history are redacted, signatures and ids kept, the live chat object untouched', async () => {
    const blobs = memoryBlobs();
    const archive = new ChatArchive(blobs, parse);
    const lines = SECRET_FORMATS.map((f) => f.line);
    const signature = 'EqQBCkgIARABGAIiQPn' + 'x'.repeat(40);
    const live: StoredChat<Transcript> = {
      ...chat(1),
      title: chatTitle(`use ${SECRET_FORMATS[0].secret} for the push`),
      transcript: { rows: lines },
      history: [
        { role: 'user', content: [{ type: 'text', text: lines.join('\n') }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'ok', signature }, { type: 'tool_use', id: 'toolu_01', name: 'memory', input: { command: 'create', path: '/memories/env.md', file_text: lines.join('\n') } }] },
      ],
    };
    const copy = JSON.stringify(live);
    await archive.save(live, { current: true });
    assert.equal(JSON.stringify(live), copy, 'the live chat keeps what the user sees');
    const written = [...blobs.files.values()].join('\n');
    for (const f of SECRET_FORMATS) assert.ok(!written.includes(f.secret), `${f.name} was written down`);
    const back = (await archive.load(live.id))!;
    assert.deepEqual(back.transcript.rows, SECRET_FORMATS.map((f) => f.line.replace(f.secret, `[REDACTED:${f.kind}]`)));
    assert.equal((back.history[1] as { content: { signature?: string }[] }).content[0].signature, signature);
    assert.equal((await archive.list())[0].title.startsWith(`use [REDACTED:${SECRET_FORMATS[0].kind}]`), true);
  });
});

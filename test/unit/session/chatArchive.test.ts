import * as assert from 'node:assert/strict';
import { SECRET_FORMATS } from '../../support/secretFormats';
import { ChatArchive, chatTitle, MAX_CHATS, MESSAGES_PER_CHUNK, ROWS_PER_CHUNK, TITLE_CHARS, type ChatBlobs, type RowSplitter, type StoredChat } from '../../../src/core/session/chatArchive';

/** Blobs in a map, as the extension's workspace storage holds them. */
function memoryBlobs(): ChatBlobs & { files: Map<string, string>; writes: string[] } {
  const files = new Map<string, string>();
  const writes: string[] = [];
  return {
    files,
    writes,
    read: async (name) => files.get(name),
    write: async (name, text) => {
      writes.push(name);
      files.set(name, text);
    },
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
    assert.equal(blobs.files.size, 2 * MAX_CHATS + 1, 'per chat a head and a history chunk, plus the index');
    assert.ok(![...blobs.files.keys()].some((k) => k.startsWith(chat(1).id)), 'the dropped chat leaves no file');

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
    // Chat History as read back after a reload (the window's own list may show what was typed).
    assert.equal((await new ChatArchive(blobs, parse).list())[0].title.startsWith(`use [REDACTED:${SECRET_FORMATS[0].kind}]`), true);
  });

  describe('stored in chunks', () => {
    /** A chunk's name without the save that wrote it: `<id>.r0-3.json` → `<id>.r0.json`. */
    const withoutGeneration = (name: string): string => name.replace(/(\.[rh]\d+)-\d+\.json$/, '$1.json');
    const rows: RowSplitter<Transcript> = {
      split: ({ rows: r, ...rest }) => ({ rows: r, rest }),
      join: (rest, r) => ({ ...(rest as object), rows: r }),
    };
    /** A chat of `n` rows, each a card output of a few KB, and as many history messages. */
    function long(n: number): StoredChat<Transcript> {
      const text = (i: number) => `row ${i} ${'output line\n'.repeat(300)}`;
      return { ...chat(7), transcript: { rows: Array.from({ length: n }, (_, i) => text(i)) }, history: Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })) };
    }

    it('keeps a chat of 1,000 rows of several MB whole: nothing is cut, every row comes back after a reload', async () => {
      const blobs = memoryBlobs();
      const big = long(1_000);
      await new ChatArchive(blobs, parse, MAX_CHATS, rows).save(big, { current: true });
      assert.ok([...blobs.files.values()].reduce((n, t) => n + t.length, 0) > 3_000_000, 'several MB on disk');
      const back = await new ChatArchive(blobs, parse, MAX_CHATS, rows).load(big.id);
      assert.deepEqual(back, big);
    });

    it('a save writes only the chunks that changed and the head: appending rows costs the last chunk, not the chat', async () => {
      const blobs = memoryBlobs();
      const archive = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      const big = long(300);
      await archive.save(big);
      blobs.writes.length = 0;
      const before = archive.bytesWritten;
      const more = { ...big, updated: 99, transcript: { rows: [...big.transcript.rows, 'one more row'] }, history: [...big.history, { role: 'user', content: 'again' }] };
      await archive.save(more);
      const last = Math.floor(300 / ROWS_PER_CHUNK);
      const lastMessages = Math.floor(300 / MESSAGES_PER_CHUNK);
      // The changed chunks go to new files (the second save's); the ones they replace are deleted.
      assert.deepEqual(blobs.writes.sort(), [`${big.id}.h${lastMessages}-2.json`, `${big.id}.json`, `${big.id}.r${last}-2.json`, 'index.json'].sort());
      assert.ok(!blobs.files.has(`${big.id}.r${last}-1.json`) && blobs.files.has(`${big.id}.r0-1.json`), 'the replaced chunk is deleted, the unchanged ones kept');
      assert.ok(archive.bytesWritten - before < 100_000, `${archive.bytesWritten - before} bytes for one more row of a ${before}-byte chat`);
      // A reopened archive (another window) knows the chunks it read: saving again writes only the head.
      const reopened = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      assert.deepEqual(await reopened.load(big.id), more);
      blobs.writes.length = 0;
      await reopened.save({ ...more, updated: 100 });
      assert.deepEqual(blobs.writes.sort(), [`${big.id}.json`, 'index.json']);
    });

    it('a shorter chat (rows voided by a retry) deletes the chunks past its end; deleting a chat deletes all its chunks', async () => {
      const blobs = memoryBlobs();
      const archive = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      const big = long(100);
      await archive.save(big);
      await archive.save({ ...big, transcript: { rows: big.transcript.rows.slice(0, 20) }, history: big.history.slice(0, 10) });
      const names = [...blobs.files.keys()].filter((k) => k.startsWith(big.id)).map(withoutGeneration).sort();
      assert.deepEqual(names, [`${big.id}.h0.json`, `${big.id}.h1.json`, `${big.id}.json`, `${big.id}.r0.json`, `${big.id}.r1.json`].sort());
      assert.equal((await new ChatArchive(blobs, parse, MAX_CHATS, rows).load(big.id))?.transcript.rows.length, 20);
      assert.equal(await archive.remove(big.id), true);
      assert.deepEqual([...blobs.files.keys()], ['index.json']);
    });

    it('a missing chunk makes the chat unreadable (it leaves the list) rather than coming back with a hole', async () => {
      const blobs = memoryBlobs();
      const big = long(40);
      await new ChatArchive(blobs, parse, MAX_CHATS, rows).save(big);
      assert.ok(blobs.files.delete(`${big.id}.r1-1.json`));
      const archive = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      assert.equal(await archive.load(big.id), undefined);
      assert.deepEqual(await archive.list(), []);
    });

    it('migrates a chat saved whole in one file (before chunks): read as it was, rewritten in chunks on load', async () => {
      const blobs = memoryBlobs();
      const old = long(50);
      blobs.files.set(`${old.id}.json`, JSON.stringify(old));
      blobs.files.set('index.json', JSON.stringify({ version: 1, current: old.id, chats: [{ id: old.id, title: old.title, created: old.created, updated: old.updated, folder: old.folder, folderName: old.folderName }] }));
      const archive = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      assert.equal(await archive.current(), old.id);
      assert.deepEqual(await archive.load(old.id), old);
      assert.ok(blobs.files.has(`${old.id}.r3-1.json`) && blobs.files.has(`${old.id}.h6-1.json`), 'rewritten in chunks');
      assert.ok((blobs.files.get(`${old.id}.json`) ?? '').length < 2_000, 'the head is small');
      assert.deepEqual(await new ChatArchive(blobs, parse, MAX_CHATS, rows).load(old.id), old);
    });

    it('a save cut between its chunks and its head (the window reloaded mid-save) leaves the previous save whole', async () => {
      const blobs = memoryBlobs();
      const first = long(40);
      await new ChatArchive(blobs, parse, MAX_CHATS, rows).save(first, { current: true });
      // The next save of the same chat (every chunk changed) dies as it reaches the head.
      const cut: ChatBlobs = { ...blobs, write: async (name, text) => (name === `${first.id}.json` ? Promise.reject(new Error('extension host gone')) : blobs.write(name, text)) };
      const changed = { ...first, updated: 50, transcript: { rows: first.transcript.rows.map((r) => `${r}!`) }, history: [...first.history, { role: 'user', content: 'more' }] };
      await assert.rejects(new ChatArchive(cut, parse, MAX_CHATS, rows).save(changed, { current: true }));
      assert.ok(blobs.writes.some((w) => /\.r0-2\.json$/.test(w)), 'the cut save had written chunks');
      const next = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      assert.equal(await next.current(), first.id);
      assert.deepEqual(await next.load(first.id), first, 'the previous save, every row');
      // The chat saves on from there.
      await next.save(changed, { current: true });
      assert.deepEqual(await new ChatArchive(blobs, parse, MAX_CHATS, rows).load(first.id), changed);
    });

    it('reads a chat saved with chunks at fixed names (version 2) and saves it on without losing a row', async () => {
      const blobs = memoryBlobs();
      const old = long(20);
      const split = rows.split(old.transcript);
      blobs.files.set(`${old.id}.r0.json`, JSON.stringify(split.rows.slice(0, ROWS_PER_CHUNK)));
      blobs.files.set(`${old.id}.r1.json`, JSON.stringify(split.rows.slice(ROWS_PER_CHUNK)));
      for (let k = 0; k * MESSAGES_PER_CHUNK < old.history.length; k++) blobs.files.set(`${old.id}.h${k}.json`, JSON.stringify(old.history.slice(k * MESSAGES_PER_CHUNK, (k + 1) * MESSAGES_PER_CHUNK)));
      const { transcript: _t, history: _h, ...summary } = old;
      blobs.files.set(`${old.id}.json`, JSON.stringify({ version: 2, ...summary, rest: split.rest, rows: 20, messages: 20 }));
      blobs.files.set('index.json', JSON.stringify({ version: 1, current: old.id, chats: [{ id: old.id, title: old.title, created: old.created, updated: old.updated, folder: old.folder, folderName: old.folderName }] }));
      const archive = new ChatArchive(blobs, parse, MAX_CHATS, rows);
      assert.deepEqual(await archive.load(old.id), old);
      const more = { ...old, updated: 60, transcript: { rows: [...old.transcript.rows, 'one more'] } };
      await archive.save(more);
      assert.ok(blobs.files.has(`${old.id}.r0.json`) && !blobs.files.has(`${old.id}.r1.json`) && blobs.files.has(`${old.id}.r1-1.json`), 'unchanged chunks stay where they are');
      assert.deepEqual(await new ChatArchive(blobs, parse, MAX_CHATS, rows).load(old.id), more);
    });
  });
});

import * as assert from 'node:assert/strict';
import { failed, failsWith, forEachStore, ok } from './harness';

const HEADER = 'Here\'re the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:';

forEachStore('view: directories', (t) => {
  it('shows the header and a single root line on an empty store, creating the root', async () => {
    const store = t.store;
    // The Node harness creates the folder; delete nothing, just view.
    assert.equal(ok(await t.run({ command: 'view', path: '/memories' })), `${HEADER}\n0B\t/memories`);
    assert.deepEqual((await store.snapshot()).filter((l) => !l.startsWith('outside')), []);
  });

  it('lists 2 levels deep, sorted, folders with /, without dot-names, node_modules or deeper levels', async () => {
    await t.store.seed('b.md', 'x'.repeat(1536));
    await t.store.seed('a/deep/deeper/x.md', 'x'.repeat(10));
    await t.store.seed('a/one.md', 'x'.repeat(512));
    await t.store.seed('.hidden/secret.md', 'h');
    await t.store.seed('.dotfile', 'h');
    await t.store.seed('node_modules/pkg/index.js', 'n');
    await t.store.seed('a-b.md', 'x'.repeat(2048));
    const text = ok(await t.run({ command: 'view', path: '/memories' }));
    assert.equal(
      text,
      [
        HEADER,
        // du-like: the root totals every regular file below it, hidden ones included.
        `${'4.1K'}\t/memories`,
        '522B\t/memories/a/',
        '10B\t/memories/a/deep/',
        '512B\t/memories/a/one.md',
        '2.0K\t/memories/a-b.md',
        '1.5K\t/memories/b.md',
      ].join('\n'),
    );
  });

  it('leaves out names with control characters (a newline would forge a row) and says how many', async () => {
    await t.store.seed('a.md', 'x');
    await t.store.seed('b.md\n4.0K\t/memories/forged.md', 'y');
    await t.store.seed('c\u001b[2Jd.md', 'z');
    await t.store.seed('dir\u0085/inner.md', 'w');
    const text = ok(await t.run({ command: 'view', path: '/memories' }));
    assert.equal(
      text,
      [
        HEADER,
        '4B\t/memories',
        '1B\t/memories/a.md',
        '[3 entries are not shown: their names hold control characters, so no memory path can name them. The user can rename them in the editor.]',
      ].join('\n'),
    );
    assert.ok(!text.includes('forged'));
  });

  it('lists a subfolder with its own path in every line, also through an alias with a trailing slash', async () => {
    await t.store.seed('projects/x/notes.md', 'hello');
    const expected = [
      'Here\'re the files and directories up to 2 levels deep in /memories/projects, excluding hidden items and node_modules:',
      '5B\t/memories/projects',
      '5B\t/memories/projects/x/',
      '5B\t/memories/projects/x/notes.md',
    ].join('\n');
    assert.equal(ok(await t.run({ command: 'view', path: '/memories/projects' })), expected);
    assert.equal(ok(await t.run({ command: 'view', path: '/memories/projects/' })), expected);
  });

  it('reports a missing path with the documented sentence', async () => {
    failsWith(await t.run({ command: 'view', path: '/memories/nope.md' }), 'The path /memories/nope.md does not exist. Please provide a valid path.');
    await t.store.seed('file.md', 'x');
    failsWith(
      await t.run({ command: 'view', path: '/memories/file.md/child' }),
      'The path /memories/file.md/child does not exist. Please provide a valid path.',
    );
  });

  it('refuses view_range on a directory', async () => {
    failsWith(
      await t.run({ command: 'view', path: '/memories', view_range: [1, 2] }),
      'Error: The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  });

  it('truncates a huge listing at a line boundary and says how many entries are hidden', async () => {
    for (let i = 0; i < 30; i++) await t.store.seed(`f${String(i).padStart(2, '0')}.md`, 'x');
    const engine = t.newEngine({ viewCharLimit: 200 });
    const text = ok(await engine.execute({ command: 'view', path: '/memories' }));
    const lines = text.split('\n');
    assert.equal(lines[0], HEADER);
    assert.equal(lines[1], '30B\t/memories');
    assert.equal(lines[2], '1B\t/memories/f00.md');
    const shown = lines.length - 3; // header, root line and note are not entries
    assert.match(lines[lines.length - 1], new RegExp(`^\\[Listing truncated: ${30 - shown} more entries not shown`));
    assert.ok(lines.slice(1, -1).join('\n').length <= 200);
  });
});

forEachStore('view: files', (t) => {
  it('numbers lines with %6d and a tab, without a phantom line after the final newline', async () => {
    await t.store.seed('notes.txt', 'Hello World\nThis is line two\n');
    assert.equal(
      ok(await t.run({ command: 'view', path: '/memories/notes.txt' })),
      "Here's the content of /memories/notes.txt with line numbers:\n     1\tHello World\n     2\tThis is line two",
    );
  });

  it('pads wide line numbers to 6 characters', async () => {
    await t.store.seed('many.txt', Array.from({ length: 120 }, (_, i) => `L${i + 1}`).join('\n'));
    const text = ok(await t.run({ command: 'view', path: '/memories/many.txt', view_range: [99, 101] }));
    assert.equal(text, "Here's the content of /memories/many.txt with line numbers:\n    99\tL99\n   100\tL100\n   101\tL101");
  });

  it('shows CRLF files without carriage returns and a BOM file without the BOM', async () => {
    await t.store.seed('crlf.txt', '\uFEFFone\r\ntwo\r\n');
    assert.equal(
      ok(await t.run({ command: 'view', path: '/memories/crlf.txt' })),
      "Here's the content of /memories/crlf.txt with line numbers:\n     1\tone\n     2\ttwo",
    );
  });

  it('says an empty file is empty', async () => {
    await t.store.seed('empty.md', '');
    assert.equal(
      ok(await t.run({ command: 'view', path: '/memories/empty.md' })),
      "Here's the content of /memories/empty.md with line numbers:\n(the file is empty)",
    );
  });

  it('supports view_range [start, end] and [start, -1]', async () => {
    await t.store.seed('r.txt', 'a\nb\nc\nd\n');
    assert.equal(ok(await t.run({ command: 'view', path: '/memories/r.txt', view_range: [2, 3] })).split('\n').slice(1).join('|'), '     2\tb|     3\tc');
    assert.equal(ok(await t.run({ command: 'view', path: '/memories/r.txt', view_range: [3, -1] })).split('\n').slice(1).join('|'), '     3\tc|     4\td');
    assert.equal(ok(await t.run({ command: 'view', path: '/memories/r.txt', view_range: [4, 4] })).split('\n').slice(1).join('|'), '     4\td');
  });

  it('validates view_range with clear errors', async () => {
    await t.store.seed('r.txt', 'a\nb\nc\n');
    const cases: [unknown, string][] = [
      [[0, 2], 'Error: Invalid `view_range` parameter: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 3].'],
      [[4, -1], 'Error: Invalid `view_range` parameter: [4, -1]. Its first element `4` should be within the range of lines of the file: [1, 3].'],
      [[3, 2], 'Error: Invalid `view_range` parameter: [3, 2]. Its second element `2` should be -1 or at least the first element `3`.'],
      [[1, 9], 'Error: Invalid `view_range` parameter: [1, 9]. Its second element `9` should be at most the number of lines in the file, 3 (or -1 for the end).'],
      [[1, -2], 'Error: Invalid `view_range` parameter: [1, -2]. Its second element `-2` should be -1 or at least the first element `1`.'],
      [[1], 'Error: Parameter `view_range` of command `view` must be an array of two integers, [start_line, end_line] (end_line -1 means the end of the file).'],
      [[1.5, 2], 'Error: Parameter `view_range` of command `view` must be an array of two integers, [start_line, end_line] (end_line -1 means the end of the file).'],
      ['1,2', 'Error: Parameter `view_range` of command `view` must be an array of two integers, [start_line, end_line] (end_line -1 means the end of the file).'],
    ];
    for (const [range, expected] of cases) {
      failsWith(await t.run({ command: 'view', path: '/memories/r.txt', view_range: range }), expected);
    }
    await t.store.seed('empty.txt', '');
    failsWith(
      await t.run({ command: 'view', path: '/memories/empty.txt', view_range: [1, -1] }),
      'Error: Invalid `view_range` parameter: [1, -1]. The file is empty; view it without `view_range`.',
    );
  });

  it('refuses files of more than 999,999 lines with the documented, non-localised sentence', async () => {
    await t.store.seed('big.txt', '\n'.repeat(1_000_000));
    failsWith(await t.run({ command: 'view', path: '/memories/big.txt' }), 'File /memories/big.txt exceeds maximum line limit of 999,999 lines.');
    await t.store.seed('ok.txt', '\n'.repeat(999_999));
    assert.match(ok(await t.run({ command: 'view', path: '/memories/ok.txt', view_range: [999_999, -1] })), /\n999999\t$/);
  });

  it('truncates long views at a line boundary and names the view_range to ask for next', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`);
    await t.store.seed('long.md', lines.join('\n') + '\n');
    const engine = t.newEngine({ viewCharLimit: 1000 });
    const text = ok(await engine.execute({ command: 'view', path: '/memories/long.md' }));
    const out = text.split('\n');
    const body = out.slice(1, -1);
    const lastShown = body.length;
    assert.ok(lastShown > 5 && lastShown < 100);
    assert.equal(body[lastShown - 1], `${String(lastShown).padStart(6)}\t${lines[lastShown - 1]}`);
    assert.ok(body.join('\n').length <= 1000);
    assert.equal(
      out[out.length - 1],
      `[Output truncated: showing lines up to ${lastShown} of 100 because views are limited to 1000 characters. Call view with view_range [${lastShown + 1}, -1] (or a narrower range) to read on.]`,
    );
    // Following the advice continues exactly where the first view stopped.
    const next = ok(await engine.execute({ command: 'view', path: '/memories/long.md', view_range: [lastShown + 1, -1] }));
    assert.equal(next.split('\n')[1], `${String(lastShown + 1).padStart(6)}\t${lines[lastShown]}`);
  });

  it('uses 16,000 characters as the default view limit', async () => {
    await t.store.seed('l.md', Array.from({ length: 2000 }, () => 'y'.repeat(20)).join('\n'));
    const text = ok(await t.run({ command: 'view', path: '/memories/l.md' }));
    assert.match(text, /limited to 16000 characters/);
    const body = text.split('\n').slice(1, -1).join('\n');
    assert.ok(body.length <= 16000 && body.length > 15900);
  });

  it('cuts a single over-long line and says so', async () => {
    await t.store.seed('one.md', 'z'.repeat(500) + '\nsecond\n');
    const engine = t.newEngine({ viewCharLimit: 100 });
    const out = ok(await engine.execute({ command: 'view', path: '/memories/one.md' })).split('\n');
    assert.equal(out[1], `     1\t${'z'.repeat(93)}`);
    assert.match(out[2], /^\[Line 1 is longer than the 100-character view limit/);
    assert.match(out[3], /view_range \[2, -1\]/);
  });

  it('refuses non-UTF-8 and binary files with a clear error', async () => {
    await t.store.seed('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await t.store.seed('blob.bin', new Uint8Array([0x41, 0x00, 0x42]));
    for (const p of ['/memories/latin1.txt', '/memories/blob.bin']) {
      failsWith(
        await t.run({ command: 'view', path: p }),
        `Error: ${p} is not a UTF-8 text file; the memory tool can only show and edit UTF-8 text files and .png, .jpg, .jpeg, .gif and .webp images.`,
      );
    }
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);
const WEBP = new Uint8Array([0x52, 0x49, 0x46, 0x46, 4, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50]);

forEachStore('view: images', (t) => {
  const cases: [string, Uint8Array, string][] = [
    ['diagram.png', PNG, 'image/png'],
    ['photo.JPG', JPEG, 'image/jpeg'],
    ['photo.jpeg', JPEG, 'image/jpeg'],
    ['anim.gif', GIF, 'image/gif'],
    ['pic.webp', WEBP, 'image/webp'],
  ];
  for (const [name, bytes, mediaType] of cases) {
    it(`returns ${name} as a text block and a base64 ${mediaType} image block`, async () => {
      await t.store.seed(`img/${name}`, bytes);
      const result = await t.run({ command: 'view', path: `/memories/img/${name}` });
      assert.equal(result.is_error, false);
      assert.deepEqual(result.content, [
        { type: 'text', text: `Here's the image /memories/img/${name} (${bytes.length}B, ${mediaType}):` },
        { type: 'image', source: { type: 'base64', media_type: mediaType, data: Buffer.from(bytes).toString('base64') } },
      ]);
      assert.deepEqual(result.touched, { kind: 'read', path: `/memories/img/${name}` });
    });
  }

  it('refuses an image whose bytes do not match its extension', async () => {
    await t.store.seed('fake.png', 'just text');
    failsWith(
      await t.run({ command: 'view', path: '/memories/fake.png' }),
      'Error: /memories/fake.png has an image file extension but its content is not a recognised image, not a image/png image; it cannot be shown.',
    );
    await t.store.seed('swapped.png', JPEG);
    failsWith(
      await t.run({ command: 'view', path: '/memories/swapped.png' }),
      'Error: /memories/swapped.png has an image file extension but its content is a image/jpeg image, not a image/png image; it cannot be shown.',
    );
  });

  it('refuses images over the size cap and view_range on images', async () => {
    const big = new Uint8Array(3.75 * 1024 * 1024 + 1);
    big.set(PNG);
    await t.store.seed('big.png', big);
    failsWith(await t.run({ command: 'view', path: '/memories/big.png' }), 'Error: The image /memories/big.png is 3.8M, larger than the 3.8M that can be shown.');
    await t.store.seed('ok.png', PNG);
    failsWith(
      await t.run({ command: 'view', path: '/memories/ok.png', view_range: [1, 2] }),
      'Error: The `view_range` parameter applies to text files only, not to images.',
    );
  });

  it('never rewrites an image or binary file with str_replace or insert', async () => {
    await t.store.seed('ok.png', PNG);
    const before = await t.store.snapshot();
    failed(await t.run({ command: 'str_replace', path: '/memories/ok.png', old_str: 'PNG', new_str: 'GIF' }));
    failed(await t.run({ command: 'insert', path: '/memories/ok.png', insert_line: 0, insert_text: 'x' }));
    assert.deepEqual(await t.store.snapshot(), before);
  });
});

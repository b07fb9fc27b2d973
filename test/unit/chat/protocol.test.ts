import * as assert from 'node:assert/strict';
import { isEntryId, isMemoryPath, MAX_CODE_CHARS, MAX_ENTRY_ID_CHARS, MAX_PROMPT_CHARS, parseExtensionMessage, parseWebviewMessage } from '../../../src/features/chat/shared/protocol';

describe('chat protocol: messages from the webview', () => {
  it('accepts each well-formed message', () => {
    for (const type of ['ready', 'stop', 'retry', 'setApiKey', 'getApiKey', 'openSettings', 'manageTrust', 'openFolder', 'reopenPrevious']) {
      assert.deepEqual(parseWebviewMessage({ type }), { type });
    }
    assert.deepEqual(parseWebviewMessage({ type: 'send', text: 'hello' }), { type: 'send', text: 'hello' });
    assert.deepEqual(parseWebviewMessage({ type: 'openMemory', entryId: 'e12', path: '/memories/notes/a.md' }), {
      type: 'openMemory',
      entryId: 'e12',
      path: '/memories/notes/a.md',
    });
  });

  it('accepts code toolbar actions and chip removals, and nothing else of their kind', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'code', action: 'copy', code: 'npm test', language: 'bash' }), { type: 'code', action: 'copy', code: 'npm test', language: 'bash' });
    assert.deepEqual(parseWebviewMessage({ type: 'code', action: 'newFile', code: '' }), { type: 'code', action: 'newFile', code: '' });
    assert.deepEqual(parseWebviewMessage({ type: 'removeAttachment', id: 'a3' }), { type: 'removeAttachment', id: 'a3' });
    assert.deepEqual(parseWebviewMessage({ type: 'approve', entryId: 'e4', decision: 'always' }), { type: 'approve', entryId: 'e4', decision: 'always' });
    assert.deepEqual(parseWebviewMessage({ type: 'openDiff', entryId: 'e4' }), { type: 'openDiff', entryId: 'e4' });
    assert.deepEqual(parseWebviewMessage({ type: 'undoEdit', entryId: 'e4' }), { type: 'undoEdit', entryId: 'e4' });
    assert.deepEqual(parseWebviewMessage({ type: 'showChange', entryId: 'e5' }), { type: 'showChange', entryId: 'e5' });
    for (const value of [
      { type: 'code', action: 'run', code: 'rm -rf /' },
      { type: 'code', action: 'copy' },
      { type: 'code', action: 'copy', code: 'x'.repeat(MAX_CODE_CHARS + 1) },
      { type: 'code', action: 'insert', code: 'x', language: 'a b' },
      { type: 'code', action: 'insert', code: 'x', language: '"><script>' },
      { type: 'code', action: 'insert', code: 'x', language: 'x'.repeat(41) },
      { type: 'removeAttachment' },
      { type: 'approve', entryId: 'e4', decision: 'yes' },
      { type: 'approve', decision: 'once' },
      { type: 'undoEdit', entryId: '../x' },
      { type: 'showChange', entryId: '../x' },
      { type: 'showChange', entryId: 5 },
      { type: 'removeAttachment', id: '../a1' },
    ]) {
      assert.equal(parseWebviewMessage(value), undefined, JSON.stringify(value).slice(0, 80));
    }
  });

  it('accepts a host question\'s answer, a blocked host\'s offer, the sandbox setting and the current chip\'s toggle, and nothing else of their kind', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'approve', entryId: 'e4', decision: 'deny', host: 'registry.npmjs.org:443' }), { type: 'approve', entryId: 'e4', decision: 'deny', host: 'registry.npmjs.org:443' });
    assert.deepEqual(parseWebviewMessage({ type: 'allowHost', entryId: 'e4', host: 'registry.npmjs.org:443' }), { type: 'allowHost', entryId: 'e4', host: 'registry.npmjs.org:443' });
    assert.deepEqual(parseWebviewMessage({ type: 'sandboxSetting', setting: 'x' }), { type: 'sandboxSetting' });
    assert.deepEqual(parseWebviewMessage({ type: 'toggleAttachment', id: 'a1' }), { type: 'toggleAttachment', id: 'a1' });
    for (const value of [
      { type: 'approve', entryId: 'e4', decision: 'once', host: 'a b' },
      { type: 'approve', entryId: 'e4', decision: 'sandboxed', host: 'x.org' },
      { type: 'approve', entryId: 'e4', decision: 'always', rule: 'npm test', host: 'x.org' },
      { type: 'allowHost', entryId: 'e4', host: '' },
      { type: 'allowHost', entryId: 'e4', host: 'x'.repeat(301) },
      { type: 'allowHost', entryId: '../e4', host: 'x.org' },
      { type: 'allowHost', entryId: 'e4', host: 'x.org/../../etc' },
      { type: 'toggleAttachment', id: '../a1' },
    ]) {
      assert.equal(parseWebviewMessage(value), undefined, JSON.stringify(value).slice(0, 80));
    }
  });

  it('drops extra properties instead of passing them on', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'stop', command: 'rm -rf' }), { type: 'stop' });
    assert.deepEqual(parseWebviewMessage({ type: 'send', text: 'hi', model: 'x' }), { type: 'send', text: 'hi' });
  });

  it('rejects unknown types and wrong shapes', () => {
    for (const value of [
      undefined,
      null,
      'ready',
      [],
      {},
      { type: 'exec' },
      { type: 'newChat' },
      { type: 7 },
      { type: 'send' },
      { type: 'send', text: 42 },
      { type: 'send', text: '   ' },
      { type: 'send', text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
      { type: 'openMemory' },
      { type: 'openMemory', path: '/etc/passwd' },
      { type: 'openMemory', path: '/memories/../secrets' },
      // Without the card's id the extension could not tell which folder's file is meant.
      { type: 'openMemory', path: '/memories/a.md' },
      { type: 'openMemory', entryId: 7, path: '/memories/a.md' },
      { type: 'openMemory', entryId: 'e1', path: '/etc/passwd' },
      { type: 'openMemory', entryId: '', path: '/memories/a.md' },
      { type: 'openMemory', entryId: '../e1', path: '/memories/a.md' },
      { type: 'openMemory', entryId: 'e'.repeat(MAX_ENTRY_ID_CHARS + 1), path: '/memories/a.md' },
    ]) {
      assert.equal(parseWebviewMessage(value), undefined, JSON.stringify(value)?.slice(0, 80));
    }
  });

  it('accepts only short plain entry ids', () => {
    assert.ok(isEntryId('e1'));
    assert.ok(isEntryId('e'.repeat(MAX_ENTRY_ID_CHARS)));
    for (const bad of [undefined, null, 3, '', 'e 1', 'e1\n', '<b>', 'e'.repeat(MAX_ENTRY_ID_CHARS + 1)]) {
      assert.equal(isEntryId(bad), false, JSON.stringify(bad));
    }
  });

  it('accepts only canonical /memories paths to open', () => {
    assert.ok(isMemoryPath('/memories'));
    assert.ok(isMemoryPath('/memories/a.md'));
    assert.ok(isMemoryPath('/memories/dir/sub/file.txt'));
    for (const bad of [
      '',
      '/',
      'memories/a',
      '/memoriesX/a',
      '/memories/',
      '/memories//a',
      '/memories/./a',
      '/memories/a/..',
      '/memories/a\\..\\b',
      '/memories/a\u0000b',
      '/memories/a\nb',
      `/memories/${'a'.repeat(1000)}`,
    ]) {
      assert.equal(isMemoryPath(bad), false, JSON.stringify(bad).slice(0, 40));
    }
  });
});

describe('chat protocol: messages from the extension', () => {
  const status = { running: false, totals: { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 }, requests: 0 };

  it('accepts the messages the extension sends', () => {
    const samples = [
      { type: 'snapshot', snapshot: { entries: [{ kind: 'user', id: 'e1', text: 'hi' }], status } },
      { type: 'entry', entry: { kind: 'notice', id: 'e2', text: 'Stopped.' } },
      { type: 'text', id: 'e3', text: 'more' },
      { type: 'remove', id: 'e3' },
      { type: 'status', status },
      { type: 'focusInput' },
    ];
    for (const message of samples) assert.deepEqual(parseExtensionMessage(message), message);
  });

  it('rejects malformed ones', () => {
    for (const value of [
      { type: 'snapshot' },
      { type: 'snapshot', snapshot: { entries: [{ kind: 'html', id: 'x' }], status } },
      { type: 'snapshot', snapshot: { entries: [], status: { running: 'yes' } } },
      { type: 'entry', entry: { kind: 'user' } },
      { type: 'text', id: 'e1' },
      { type: 'status', status: null },
      { type: 'eval', code: 'x' },
    ]) {
      assert.equal(parseExtensionMessage(value), undefined, JSON.stringify(value));
    }
  });
});

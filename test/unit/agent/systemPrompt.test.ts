import * as assert from 'node:assert/strict';
import { buildSystemPrompt, isoDate, osName } from '../../../src/core/agent/systemPrompt';

describe('system prompt', () => {
  const facts = { os: 'Linux', shell: '/bin/bash', folderName: 'app', folderPath: '/home/u/app', date: '2026-11-30', editor: true };

  it('states the platform facts, the memory and who wins when memory disagrees', () => {
    const prompt = buildSystemPrompt(facts);
    assert.match(prompt, /workspace folder "app" at \/home\/u\/app, on Linux\. Today is 2026-11-30\./);
    assert.match(prompt, /Your memory is the \/memories directory/);
    assert.match(prompt, /The workspace's files and the user are the truth: when memory disagrees with them, trust them/);
    assert.match(prompt, /The bash tool runs \/bin\/bash in \/home\/u\/app/);
    assert.ok(prompt.length < 1200, 'short');
  });

  it('is the same text for the same facts (cacheable) and leaves out tools that are not there', () => {
    assert.equal(buildSystemPrompt(facts), buildSystemPrompt({ ...facts }));
    const virtual = buildSystemPrompt({ ...facts, shell: undefined });
    assert.doesNotMatch(virtual, /bash/);
    assert.match(virtual, /str_replace_based_edit_tool/);
  });

  it('names the OS and formats the local date', () => {
    assert.deepEqual(['darwin', 'win32', 'linux'].map(osName), ['macOS', 'Windows', 'Linux']);
    assert.equal(isoDate(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
  });
});

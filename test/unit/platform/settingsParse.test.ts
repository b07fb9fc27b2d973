import * as assert from 'assert';
import { DEFAULT_SETTINGS, invalidFolderNameReason, parseSettings, type SettingProblem } from '../../../src/platform/settingsParse';

/** parseSettings over a plain object, collecting the problems it reports. */
function parse(values: Record<string, unknown>, baseUrl?: unknown): { settings: ReturnType<typeof parseSettings>; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const settings = parseSettings(<T>(key: string) => values[key] as T | undefined, baseUrl, (p) => problems.push(p));
  return { settings, problems };
}

describe('settings validation', () => {
  it('nothing set gives the documented defaults', () => {
    const { settings, problems } = parse({});
    assert.deepStrictEqual(settings, DEFAULT_SETTINGS);
    assert.deepStrictEqual(problems, []);
  });

  it('numbers are clamped and floored; wrong types fall back with a problem', () => {
    const { settings, problems } = parse({ maxTokens: 0, maxTurns: 12.7, maxFileBytes: 10, quotaBytes: 'lots', redactSecrets: 'no', createPolicy: 'overwrite' });
    assert.strictEqual(settings.maxTokens, 1);
    assert.strictEqual(settings.maxTurns, 12);
    assert.strictEqual(settings.maxFileBytes, 1024);
    assert.strictEqual(settings.quotaBytes, DEFAULT_SETTINGS.quotaBytes);
    assert.strictEqual(settings.redactSecrets, true);
    assert.strictEqual(settings.createPolicy, 'overwrite');
    assert.deepStrictEqual(problems.map((p) => p.key), ['quotaBytes']);
    assert.strictEqual(parse({ createPolicy: 'merge' }).settings.createPolicy, 'error');
  });

  it('workspace tool settings: edits is apply unless exactly ask, numbers clamped, switches booleans', () => {
    assert.strictEqual(parse({ edits: 'ask' }).settings.edits, 'ask');
    assert.strictEqual(parse({ edits: 'yolo' }).settings.edits, 'apply');
    const { settings } = parse({ editorMaxCharacters: 10, commandTimeoutSeconds: 0, compaction: false, gitCommit: false });
    assert.strictEqual(settings.editorMaxCharacters, 1000);
    assert.strictEqual(settings.commandTimeoutSeconds, 1);
    assert.strictEqual(settings.compaction, false);
    assert.strictEqual(settings.gitCommit, false);
    assert.deepStrictEqual(
      [DEFAULT_SETTINGS.edits, DEFAULT_SETTINGS.editorMaxCharacters, DEFAULT_SETTINGS.commandTimeoutSeconds, DEFAULT_SETTINGS.compaction, DEFAULT_SETTINGS.gitCommit],
      ['apply', 16000, 120, true, true],
    );
  });

  it('the memory folder must be one plain folder name', () => {
    for (const ok of ['.claude-memories', 'memories', 'team_notes-2', '.m']) assert.strictEqual(invalidFolderNameReason(ok), undefined, ok);
    for (const bad of ['', '.', '..', '../outside', 'a/b', 'a\\b', '/abs', 'C:', 'sp ace', 'x'.repeat(65)]) {
      assert.ok(invalidFolderNameReason(bad), `accepted ${JSON.stringify(bad)}`);
      const { settings, problems } = parse({ memoryFolder: bad });
      assert.strictEqual(settings.memoryFolder, '.claude-memories');
      assert.deepStrictEqual(problems.map((p) => p.key), ['memoryFolder']);
    }
    assert.strictEqual(parse({ memoryFolder: '  notes ' }).settings.memoryFolder, 'notes');
  });

  it('apiBaseUrl: https anywhere, http only to this machine, anything else is the SDK default', () => {
    assert.strictEqual(parse({}, 'https://gateway.example.com/anthropic/').settings.apiBaseUrl, 'https://gateway.example.com/anthropic');
    assert.strictEqual(parse({}, 'http://127.0.0.1:8787').settings.apiBaseUrl, 'http://127.0.0.1:8787');
    assert.strictEqual(parse({}, 'http://localhost:1234/v').settings.apiBaseUrl, 'http://localhost:1234/v');
    assert.strictEqual(parse({}, '').settings.apiBaseUrl, undefined);
    for (const bad of ['http://api.example.com', 'ftp://127.0.0.1', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)']) {
      const { settings, problems } = parse({}, bad);
      assert.strictEqual(settings.apiBaseUrl, undefined, bad);
      assert.deepStrictEqual(problems.map((p) => p.key), ['apiBaseUrl'], bad);
    }
  });

  it('the model id is trimmed; blank means the default', () => {
    assert.strictEqual(parse({ model: ' claude-haiku-4-5 ' }).settings.model, 'claude-haiku-4-5');
    assert.strictEqual(parse({ model: '   ' }).settings.model, DEFAULT_SETTINGS.model);
  });
});

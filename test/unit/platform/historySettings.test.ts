/** History's switch and limits come from the user's settings only, with the documented defaults. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_HISTORY_RETENTION } from '../../../src/core/memory/history/types';
import { DEFAULT_SETTINGS, historyRetentionOf, parseSettings, USER_ONLY_KEYS, type SettingProblem } from '../../../src/platform/settingsParse';

function parse(merged: Record<string, unknown>, user: Record<string, unknown>): { settings: ReturnType<typeof parseSettings>; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const settings = parseSettings(
    <T>(key: string) => merged[key] as T | undefined,
    undefined,
    (p) => problems.push(p),
    {},
    <T>(key: string) => user[key] as T | undefined,
  );
  return { settings, problems };
}

describe('history settings', () => {
  it('default to the engine\'s retention (50 versions, 30 days, 20 MiB), on', () => {
    assert.deepStrictEqual(historyRetentionOf(DEFAULT_SETTINGS), DEFAULT_HISTORY_RETENTION);
    assert.deepStrictEqual(historyRetentionOf(parse({}, {}).settings), { maxVersionsPerFile: 50, maxDays: 30, maxBytes: 20 * 1024 * 1024 });
  });

  it('are read through the user-only reader: the merged (workspace) values cannot turn history off or shrink it', () => {
    const fromWorkspace = parse({ historyEnabled: false, historyMaxVersionsPerFile: 1, historyMaxDays: 1, historyMaxMegabytes: 1 }, {}).settings;
    assert.deepStrictEqual(historyRetentionOf(fromWorkspace), DEFAULT_HISTORY_RETENTION);
    const fromUser = parse({}, { historyMaxVersionsPerFile: 5, historyMaxDays: 2.9, historyMaxMegabytes: 3 }).settings;
    assert.deepStrictEqual(historyRetentionOf(fromUser), { maxVersionsPerFile: 5, maxDays: 2, maxBytes: 3 * 1024 * 1024 });
    assert.strictEqual(historyRetentionOf(parse({}, { historyEnabled: false }).settings), false);
  });

  it('clamp nonsense to at least 1 and report non-numbers', () => {
    const { settings, problems } = parse({}, { historyMaxVersionsPerFile: 0, historyMaxDays: -4, historyMaxMegabytes: 'big' });
    assert.deepStrictEqual([settings.historyMaxVersionsPerFile, settings.historyMaxDays, settings.historyMaxMegabytes], [1, 1, 20]);
    assert.deepStrictEqual(problems.map((p) => p.key), ['historyMaxMegabytes']);
  });

  it('package.json declares each as an application-scoped setting with the same default', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: { configuration: Array<{ properties: Record<string, { default: unknown; scope?: string }> }> };
    };
    const props = Object.assign({}, ...pkg.contributes.configuration.map((section) => section.properties)) as Record<string, { default: unknown; scope?: string }>;
    for (const [key, name] of Object.entries(USER_ONLY_KEYS)) {
      const declared = props[`claudeMemory.${name}`];
      assert.ok(declared, name);
      assert.strictEqual(declared.scope, 'application', name);
      assert.strictEqual(declared.default, DEFAULT_SETTINGS[key as keyof typeof USER_ONLY_KEYS], name);
    }
  });
});

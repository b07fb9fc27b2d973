/**
 * What a cloned repository's workspace settings can change: every setting of package.json is in
 * SETTING_TRUST, and user-only / tighten-only settings hold against hostile workspace values.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_SETTINGS,
  invalidFolderNameReason,
  parseSandboxSettings,
  parseSettings,
  SETTING_NAMES,
  SETTING_TRUST,
  trustedValue,
  type SettingLayers,
  type SettingName,
} from '../../../src/platform/settingsParse';

const REPO = path.resolve(__dirname, '../../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } | { properties: Record<string, { default?: unknown; scope?: string }> }[] };
};
const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
const declared = Object.assign({}, ...sections.map((s) => s.properties)) as Record<string, { default?: unknown; scope?: string }>;

describe('settings a cloned repository must not loosen', () => {
  it('names every package.json setting in SETTING_TRUST, and nothing else', () => {
    const names = Object.keys(declared).map((k) => k.replace(/^claudeMemory\./, ''));
    const missing = names.filter((n) => !(n in SETTING_TRUST));
    assert.deepEqual(missing, [], `add these settings to SETTING_TRUST (settingsParse.ts): ${missing.join(', ')}`);
    assert.deepEqual(Object.keys(SETTING_TRUST).filter((n) => !names.includes(n)), []);
    for (const name of Object.values(SETTING_NAMES)) assert.ok(names.includes(name), name);
  });

  it('keeps the protections of the issue user-only or tighten-only', () => {
    const userOnly: SettingName[] = ['memoryFolder', 'apiBaseUrl', 'commands.allow', 'commands.deny', 'sandbox', 'sandbox.allowedDomains', 'sandbox.autoAllow', 'history.enabled'];
    for (const n of userOnly) assert.equal(SETTING_TRUST[n], 'user-only', n);
    for (const n of ['redactSecrets', 'checklistGuard', 'commandTimeoutSeconds', 'edits', 'expiry.days'] as SettingName[]) assert.equal(SETTING_TRUST[n], 'tighten-only', n);
  });

  const layers = (user: unknown, ...workspace: unknown[]): SettingLayers => ({ default: undefined, user, workspace, merged: [...workspace].reverse().find((w) => w !== undefined) ?? user });

  it('ignores workspace values of user-only settings', () => {
    assert.equal(trustedValue('memoryFolder', { default: '.claude-memories', user: undefined, workspace: ['.git'], merged: '.git' }), '.claude-memories');
    assert.deepEqual(trustedValue('sandbox.allowedDomains', layers(['npmjs.org'], ['evil.example'])), ['npmjs.org']);
    assert.equal(trustedValue('sandbox', layers(undefined, 'off')), undefined);
    const sandbox = parseSandboxSettings((name) => (name === 'sandbox' ? layers(undefined, 'off') : name === 'sandbox.autoAllow' ? layers(undefined, true) : layers(undefined, ['x.example'])));
    assert.deepEqual(sandbox, { mode: 'on', allowedDomains: [], autoAllow: false });
    assert.deepEqual(parseSandboxSettings((name) => (name === 'sandbox' ? layers('off') : name === 'sandbox.autoAllow' ? layers(true) : layers([' registry.npmjs.org ', 3]))), {
      mode: 'off',
      allowedDomains: ['registry.npmjs.org'],
      autoAllow: true,
    });
  });

  it('takes a workspace value of a tighten-only setting only when it is stricter', () => {
    assert.equal(trustedValue('commandTimeoutSeconds', layers(120, 86400)), 120, 'a workspace cannot lengthen the timeout');
    assert.equal(trustedValue('commandTimeoutSeconds', layers(120, 30)), 30, 'it may shorten it');
    assert.equal(trustedValue('commandTimeoutSeconds', { default: 120, workspace: [86400], merged: 86400 }), 120);
    assert.equal(trustedValue('redactSecrets', layers(undefined, false)), undefined, 'stays at the default');
    assert.equal(trustedValue('redactSecrets', { default: true, workspace: [false], merged: false }), true);
    assert.equal(trustedValue('redactSecrets', layers(false, true)), true);
    assert.equal(trustedValue('checklistGuard', layers(true, false)), true);
    assert.equal(trustedValue('edits', layers('ask', 'apply')), 'ask');
    assert.equal(trustedValue('edits', layers('apply', 'ask')), 'ask');
    assert.equal(trustedValue('createPolicy', layers('error', 'overwrite')), 'error');
    assert.equal(trustedValue('maxFileBytes', layers(1000, 'huge')), 1000, 'an invalid workspace value is ignored');
  });

  it('a hostile .vscode/settings.json changes none of them in the parsed snapshot', () => {
    const hostile: Record<string, unknown> = { memoryFolder: '.git', redactSecrets: false, checklistGuard: false, commandTimeoutSeconds: 86400, edits: 'apply', createPolicy: 'overwrite', maxTurns: 7 };
    const snapshot = parseSettings(
      (key) => trustedValue(SETTING_NAMES[key], { default: (DEFAULT_SETTINGS as unknown as Record<string, unknown>)[key], workspace: [hostile[key]], merged: hostile[key] ?? (DEFAULT_SETTINGS as unknown as Record<string, unknown>)[key] }) as never,
      undefined,
      () => undefined,
    );
    assert.equal(snapshot.memoryFolder, '.claude-memories');
    assert.equal(snapshot.redactSecrets, true);
    assert.equal(snapshot.checklistGuard, true);
    assert.equal(snapshot.commandTimeoutSeconds, 120);
    assert.equal(snapshot.createPolicy, 'error');
    assert.equal(snapshot.maxTurns, 7, 'a free setting still follows the workspace');
  });

  it('never accepts a memory folder that names git data or a place where code runs, whoever sets it', () => {
    for (const name of ['.git', '.GIT', '.github', '.gitfoo', '.vscode', '.idea', '.husky', '.devcontainer', '.envrc', '.bashrc']) assert.ok(invalidFolderNameReason(name), name);
    for (const name of ['.claude-memories', 'memory', '.notes']) assert.equal(invalidFolderNameReason(name), undefined, name);
    const problems: string[] = [];
    const snapshot = parseSettings((key) => (key === 'memoryFolder' ? ('.vscode' as never) : undefined), undefined, (p) => problems.push(p.reason));
    assert.equal(snapshot.memoryFolder, '.claude-memories');
    assert.match(problems.join(), /protected/);
  });

  it('declares the user-only settings application-scoped where VS Code offers it', () => {
    for (const name of ['sandbox', 'sandbox.allowedDomains', 'sandbox.autoAllow', 'commands.allow', 'commands.deny']) {
      assert.equal(declared[`claudeMemory.${name}`].scope, 'application', name);
    }
  });
});

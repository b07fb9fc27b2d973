import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_DEFAULTS } from '../../../src/core/agent';
import { DEFAULT_SETTINGS } from '../../../src/platform/settingsParse';

/** package.json sits at the repository root, four levels above out/test/unit/agent/. */
const PACKAGE_JSON = path.resolve(__dirname, '../../../../package.json');

type Configuration = { properties: Record<string, { default?: unknown }> };

describe('agent defaults', () => {
  it('are the defaults package.json declares for the claudeMemory settings', () => {
    const pkg = JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { contributes: { configuration: Configuration | Configuration[] } };
    const sections = ([] as Configuration[]).concat(pkg.contributes.configuration);
    const declared = (key: string) => sections.find((s) => key in s.properties)?.properties[key]?.default;
    assert.equal(declared('claudeMemory.model'), AGENT_DEFAULTS.model);
    assert.equal(declared('claudeMemory.maxTokens'), AGENT_DEFAULTS.maxTokens);
    assert.equal(declared('claudeMemory.maxTurns'), AGENT_DEFAULTS.maxTurns);
  });

  it('are the fallbacks the extension settings parser uses', () => {
    assert.equal(DEFAULT_SETTINGS.model, AGENT_DEFAULTS.model);
    assert.equal(DEFAULT_SETTINGS.maxTokens, AGENT_DEFAULTS.maxTokens);
    assert.equal(DEFAULT_SETTINGS.maxTurns, AGENT_DEFAULTS.maxTurns);
  });
});

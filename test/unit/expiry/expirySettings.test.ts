/**
 * claudeMemory.expiry.days: a cloned repository's workspace settings may lengthen expiry or turn
 * it off, never make memory vanish faster than its user chose.
 */
import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, effectiveExpiryDays, MAX_EXPIRY_DAYS, parseSettings, type ExpiryDaysLayers, type SettingProblem } from '../../../src/platform/settingsParse';

function days(layers: ExpiryDaysLayers): { days: number; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  return { days: effectiveExpiryDays(layers, (p) => problems.push(p)), problems };
}

describe('expiry days setting', () => {
  it('defaults to 90; the user\'s value is taken as an integer, at most 100 years', () => {
    assert.equal(DEFAULT_SETTINGS.expiryDays, 90);
    assert.equal(days({}).days, 90);
    assert.equal(days({ user: 30 }).days, 30);
    assert.equal(days({ user: 0 }).days, 0);
    assert.equal(days({ user: 12.9 }).days, 12);
    assert.equal(days({ user: 1e9 }).days, MAX_EXPIRY_DAYS);
    assert.equal(parseSettings(() => undefined, undefined, () => undefined, { user: 14 }).expiryDays, 14);
  });

  it('a workspace may lengthen it or turn it off, never shorten it', () => {
    assert.equal(days({ user: 30, workspace: [365] }).days, 365);
    assert.equal(days({ user: 30, workspace: [7] }).days, 30, 'shorter than the user\'s value');
    assert.equal(days({ workspace: [1] }).days, 90, 'shorter than the default the user has');
    assert.equal(days({ user: 30, workspace: [0] }).days, 0, 'off');
    assert.equal(days({ user: 30, workspace: [undefined, 60] }).days, 60, 'a folder setting');
    assert.equal(days({ user: 30, workspace: [365, 7] }).days, 365);
  });

  it('a workspace cannot turn on an expiry the user switched off', () => {
    assert.equal(days({ user: 0, workspace: [30] }).days, 0);
  });

  it('nonsense is ignored with a problem, layer by layer', () => {
    const { days: d, problems } = days({ user: -5, workspace: ['1', 200] });
    assert.equal(d, 200);
    assert.deepEqual(problems.map((p) => p.key), ['expiryDays', 'expiryDays']);
    assert.equal(days({ user: Number.NaN }).days, 90);
  });
});

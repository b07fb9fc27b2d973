/**
 * Who may set each `claudeMemory.*` setting, and the value in force when a workspace sets one
 * too (user-only, tighten-only, free).
 */
import type { SettingKey } from './settingsSnapshot';

/**
 * Settings read from the user's (global) settings only, by their `claudeMemory.` names: a cloned
 * repository must not be able to switch history off or shrink it, which would make the agent's
 * writes unreviewable.
 */
export const USER_ONLY_KEYS = {
  historyEnabled: 'history.enabled',
  historyMaxVersionsPerFile: 'history.maxVersionsPerFile',
  historyMaxDays: 'history.maxDays',
  historyMaxMegabytes: 'history.maxMegabytes',
  checkpointMaxFileMegabytes: 'checkpoints.maxFileMegabytes',
} as const satisfies Partial<Record<SettingKey, string>>;

/**
 * Who may set each `claudeMemory.*` setting (package.json names; a unit test fails when
 * package.json has a setting this table does not name). A cloned repository's workspace settings
 * must never widen what Claude or a command may do nor weaken a protection:
 * - `user-only`: read from the user's (global) settings alone; workspace values are ignored;
 * - `tighten-only`: a workspace value applies only when it is stricter than the user's
 *   (TIGHTER says which is stricter: a shorter timeout, redaction on, edits asked for, ...);
 * - `free`: any layer, as VS Code merges them (a workspace's value wins).
 */
export type SettingTrust = 'user-only' | 'tighten-only' | 'free';

export const SETTING_TRUST = {
  model: 'free',
  maxTokens: 'free',
  maxTurns: 'free',
  memoryFolder: 'user-only',
  maxFileBytes: 'tighten-only',
  quotaBytes: 'tighten-only',
  redactSecrets: 'tighten-only',
  createPolicy: 'tighten-only',
  promptCaching: 'free',
  contextEditing: 'free',
  apiBaseUrl: 'user-only',
  checklistGuard: 'tighten-only',
  compaction: 'free',
  compactionTrigger: 'free',
  compactionSavePercent: 'free',
  edits: 'tighten-only',
  editorMaxCharacters: 'free',
  commandTimeoutSeconds: 'tighten-only',
  'commands.allow': 'user-only',
  'commands.deny': 'user-only',
  gitCommit: 'free',
  'history.enabled': 'user-only',
  'history.maxVersionsPerFile': 'user-only',
  'history.maxDays': 'user-only',
  'history.maxMegabytes': 'user-only',
  'checkpoints.maxFileMegabytes': 'user-only',
  'expiry.days': 'tighten-only',
  sandbox: 'user-only',
  'sandbox.allowedDomains': 'user-only',
  'sandbox.autoAllow': 'user-only',
} as const satisfies Record<string, SettingTrust>;

export type SettingName = keyof typeof SETTING_TRUST;

/** For each tighten-only setting: the stricter of the current value and a workspace's (undefined: the workspace value is not valid). */
const TIGHTER: { [K in SettingName as (typeof SETTING_TRUST)[K] extends 'tighten-only' ? K : never]: (current: unknown, workspace: unknown) => unknown } = {
  maxFileBytes: smaller,
  quotaBytes: smaller,
  commandTimeoutSeconds: smaller,
  redactSecrets: (a, b) => (typeof b === 'boolean' ? a === true || b : undefined),
  checklistGuard: (a, b) => (typeof b === 'boolean' ? a === true || b : undefined),
  createPolicy: (a, b) => (b === 'error' || b === 'overwrite' ? (a === 'overwrite' && b === 'overwrite' ? 'overwrite' : 'error') : undefined),
  edits: (a, b) => (b === 'ask' || b === 'apply' ? (a === 'ask' || b === 'ask' ? 'ask' : 'apply') : undefined),
  // 0 (off) counts as forever: a workspace may lengthen the window or turn expiry off (effectiveExpiryDays).
  'expiry.days': (a, b) => (typeof b === 'number' && Number.isFinite(b) && b >= 0 ? (a === 0 || b === 0 ? 0 : Math.max(Number(a), b)) : undefined),
};

function smaller(a: unknown, b: unknown): unknown {
  if (typeof b !== 'number' || !Number.isFinite(b) || b <= 0) return undefined;
  return typeof a === 'number' && Number.isFinite(a) ? Math.min(a, b) : b;
}

/** One setting's raw values by layer (VS Code's `inspect`). */
export interface SettingLayers {
  default?: unknown;
  user?: unknown;
  /** Values from workspace files, outermost first (the workspace, then the folder). */
  workspace: readonly unknown[];
  /** VS Code's merged value (used for free settings). */
  merged?: unknown;
}

/** The value in force for `name` under SETTING_TRUST. */
export function trustedValue(name: SettingName, layers: SettingLayers): unknown {
  const trust: SettingTrust = SETTING_TRUST[name];
  if (trust === 'free') return layers.merged;
  const own = layers.user !== undefined ? layers.user : layers.default;
  if (trust === 'user-only') return own;
  // Without a known value to compare with, no workspace value can be shown to be stricter.
  if (own === undefined) return undefined;
  const tighter = (TIGHTER as Record<string, (a: unknown, b: unknown) => unknown>)[name];
  let value = own;
  for (const raw of layers.workspace) {
    if (raw === undefined || raw === null) continue;
    const next = tighter(value, raw);
    if (next !== undefined) value = next;
  }
  return value;
}

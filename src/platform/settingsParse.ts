/**
 * The `claudeMemory.*` settings' validation: raw values to a SettingsSnapshot, the engine
 * settings of a snapshot, the expiry window in force. No `vscode` import, so the rules (which
 * folder names and API URLs are acceptable) are unit-tested in plain Node. The shape and defaults
 * are in settingsSnapshot.ts, who may set what in settingTrust.ts, the sandbox's in
 * sandboxSettingsParse.ts; all are exported from here too.
 */
import { MIN_COMPACTION_TRIGGER_TOKENS } from '../core/agent/compaction';
import type { HistoryRetention } from '../core/memory/history/types';
import type { StoreSettings } from '../core/memory/storeSettings';
import { protectedReason } from '../core/workspace/protectedPaths';
import { DEFAULT_SETTINGS, MAX_EXPIRY_DAYS, type Reader, type SettingKey, type SettingProblem, type SettingsSnapshot } from './settingsSnapshot';

export * from './settingsSnapshot';
export * from './settingTrust';
export * from './sandboxSettingsParse';

/** The raw values of `claudeMemory.expiry.days` by layer (VS Code's `inspect`). */
export interface ExpiryDaysLayers {
  /** The user's own value (user settings), undefined when not set. */
  user?: unknown;
  /** Values from workspace files (the .code-workspace, a folder's .vscode/settings.json). */
  workspace?: readonly unknown[];
}

/**
 * Validates raw values; pure so it can be reasoned about apart from VS Code. `userOnly` reads the
 * USER_ONLY_KEYS from the user's settings alone (default: none set).
 */
export function parseSettings(
  get: Reader,
  rawBaseUrl: unknown,
  onProblem: (problem: SettingProblem) => void,
  expiryLayers: ExpiryDaysLayers = {},
  userOnly: Reader = () => undefined,
): SettingsSnapshot {
  const d = DEFAULT_SETTINGS;
  const int = (key: SettingKey, min: number, max: number, read: Reader = get): number => {
    const v = read<unknown>(key);
    if (v === undefined) return d[key] as number;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      onProblem({ key, reason: 'not a number' });
      return d[key] as number;
    }
    return Math.min(max, Math.max(min, Math.floor(v)));
  };
  const bool = (key: SettingKey, read: Reader = get): boolean => {
    const v = read<unknown>(key);
    return typeof v === 'boolean' ? v : (d[key] as boolean);
  };
  const model = get<unknown>('model');
  const createPolicy = get<unknown>('createPolicy');
  return {
    model: typeof model === 'string' && model.trim() !== '' ? model.trim() : d.model,
    maxTokens: int('maxTokens', 1, 128000),
    maxTurns: int('maxTurns', 1, 500),
    memoryFolder: validFolderName(get<unknown>('memoryFolder'), onProblem),
    maxFileBytes: int('maxFileBytes', 1024, Number.MAX_SAFE_INTEGER),
    quotaBytes: int('quotaBytes', 1024, Number.MAX_SAFE_INTEGER),
    redactSecrets: bool('redactSecrets'),
    createPolicy: createPolicy === 'overwrite' ? 'overwrite' : 'error',
    promptCaching: bool('promptCaching'),
    contextEditing: bool('contextEditing'),
    apiBaseUrl: validBaseUrl(rawBaseUrl, onProblem),
    checklistGuard: bool('checklistGuard'),
    compaction: bool('compaction'),
    compactionTrigger: int('compactionTrigger', MIN_COMPACTION_TRIGGER_TOKENS, 10_000_000),
    compactionSavePercent: int('compactionSavePercent', 0, 99),
    edits: get<unknown>('edits') === 'ask' ? 'ask' : 'apply',
    editorMaxCharacters: int('editorMaxCharacters', 1000, 1_000_000),
    commandTimeoutSeconds: int('commandTimeoutSeconds', 1, 24 * 3600),
    gitCommit: bool('gitCommit'),
    historyEnabled: bool('historyEnabled', userOnly),
    historyMaxVersionsPerFile: int('historyMaxVersionsPerFile', 1, 100_000, userOnly),
    historyMaxDays: int('historyMaxDays', 1, 36_500, userOnly),
    historyMaxMegabytes: int('historyMaxMegabytes', 1, 100_000, userOnly),
    expiryDays: effectiveExpiryDays(expiryLayers, onProblem),
    checkpointMaxFileMegabytes: int('checkpointMaxFileMegabytes', 1, 10_000, userOnly),
  };
}

/** The engine settings of a snapshot (the window's engines and the MCP servers VS Code starts). */
export function storeSettingsOf(s: SettingsSnapshot): StoreSettings {
  return {
    maxFileBytes: s.maxFileBytes,
    quotaBytes: s.quotaBytes,
    redactSecrets: s.redactSecrets,
    checklistGuard: s.checklistGuard,
    createPolicy: s.createPolicy,
    history: historyRetentionOf(s),
  };
}

/** The engine's `history` option from the settings: false when off. */
export function historyRetentionOf(s: Pick<SettingsSnapshot, 'historyEnabled' | 'historyMaxVersionsPerFile' | 'historyMaxDays' | 'historyMaxMegabytes'>): HistoryRetention | false {
  if (!s.historyEnabled) return false;
  return { maxVersionsPerFile: s.historyMaxVersionsPerFile, maxDays: s.historyMaxDays, maxBytes: s.historyMaxMegabytes * 1024 * 1024 };
}

/**
 * The expiry window in force. A cloned repository's settings must not make memory vanish faster
 * than its user chose: a workspace value may lengthen the window or turn expiry off (0), never
 * shorten it, and cannot turn back on an expiry the user switched off. 0 counts as "forever".
 */
export function effectiveExpiryDays(layers: ExpiryDaysLayers, onProblem: (p: SettingProblem) => void): number {
  const parse = (raw: unknown): number | undefined => {
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) {
      onProblem({ key: 'expiryDays', reason: 'not a number of days (0 or more); ignored' });
      return undefined;
    }
    return Math.min(MAX_EXPIRY_DAYS, Math.floor(raw));
  };
  let days = parse(layers.user) ?? DEFAULT_SETTINGS.expiryDays;
  for (const raw of layers.workspace ?? []) {
    const value = parse(raw);
    if (value === undefined || days === 0) continue;
    days = value === 0 ? 0 : Math.max(days, value);
  }
  return days;
}

/** Why `name` is not usable as the memory folder (one plain folder name), or undefined. */
export function invalidFolderNameReason(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'must be a folder name';
  if (name.length > 64) return 'longer than 64 characters';
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return 'only letters, digits, ".", "_" and "-" are allowed (no slashes)';
  // Never a place where code runs or git keeps its data: the memory tool writes without asking.
  if (name.toLowerCase().startsWith('.git') || protectedReason(name) !== undefined || protectedReason(`${name}/x`) !== undefined) {
    return 'names a protected place (git data, editor or tool settings that run code)';
  }
  return undefined;
}

function validFolderName(raw: unknown, onProblem: (p: SettingProblem) => void): string {
  if (raw === undefined) return DEFAULT_SETTINGS.memoryFolder;
  const name = typeof raw === 'string' ? raw.trim() : '';
  const reason = typeof raw === 'string' ? invalidFolderNameReason(name) : 'not a string';
  if (reason === undefined) return name;
  onProblem({ key: 'memoryFolder', reason: `${reason}; using ${DEFAULT_SETTINGS.memoryFolder}` });
  return DEFAULT_SETTINGS.memoryFolder;
}

function validBaseUrl(raw: unknown, onProblem: (p: SettingProblem) => void): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    onProblem({ key: 'apiBaseUrl', reason: 'not a URL; using the SDK default' });
    return undefined;
  }
  // The key travels in a header: plain http only to this machine.
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    onProblem({ key: 'apiBaseUrl', reason: 'must be https (or http to localhost); using the SDK default' });
    return undefined;
  }
  return url.toString().replace(/\/$/, '');
}

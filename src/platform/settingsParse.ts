/**
 * The `claudeMemory.*` settings' shape, defaults and validation. No `vscode` import, so the rules
 * (which folder names and API URLs are acceptable) are unit-tested in plain Node.
 */
import { AGENT_DEFAULTS } from '../core/agent/defaults';
import { COMPACTION_TRIGGER_TOKENS, DEFAULT_SAVE_THRESHOLD, MIN_COMPACTION_TRIGGER_TOKENS } from '../core/agent/compaction';
import { DEFAULT_HISTORY_RETENTION, type HistoryRetention } from '../core/memory/history/types';
import { DEFAULT_EXPIRY_DAYS } from '../core/memory/history/expiry';
import { DEFAULT_MEMORY_ENGINE_OPTIONS } from '../core/memory/options';
import type { StoreSettings } from '../core/memory/storeSettings';
import { DEFAULT_STORE_FOLDER } from '../core/memory/types';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../core/workspace/bashTool';
import { DEFAULT_EDITOR_MAX_CHARACTERS } from '../core/workspace/editor';
import { protectedReason } from '../core/workspace/protectedPaths';

export type CreatePolicy = 'error' | 'overwrite';

export interface SettingsSnapshot {
  model: string;
  maxTokens: number;
  maxTurns: number;
  /** A single safe folder name, already validated (invalid values fall back to the default). */
  memoryFolder: string;
  maxFileBytes: number;
  quotaBytes: number;
  redactSecrets: boolean;
  createPolicy: CreatePolicy;
  promptCaching: boolean;
  contextEditing: boolean;
  /** Undefined = the SDK default. Only ever taken from user/machine settings. */
  apiBaseUrl: string | undefined;
  checklistGuard: boolean;
  /** Server-side compaction (compact_20260112) paired with memory. */
  compaction: boolean;
  /** Prompt size in tokens from which the API compacts. */
  compactionTrigger: number;
  /** Percent of the trigger past which Claude is asked to save its state to memory (0: never). */
  compactionSavePercent: number;
  /** Text-editor writes: applied at once, or asked for one by one. */
  edits: EditMode;
  editorMaxCharacters: number;
  commandTimeoutSeconds: number;
  /** Resume asks Claude to commit verified work when the folder is a git repository. */
  gitCommit: boolean;
  /** History (versions of every change) and its retention. User settings only (USER_ONLY_KEYS). */
  historyEnabled: boolean;
  historyMaxVersionsPerFile: number;
  historyMaxDays: number;
  historyMaxMegabytes: number;
  /**
   * `claudeMemory.expiry.days`: memory files unused this long are deleted (recorded, restorable);
   * 0 = off. A workspace may only lengthen it or turn it off (see effectiveExpiryDays).
   */
  expiryDays: number;
  /** Files above this many megabytes are left out of checkpoints (a rewind says so). User settings only. */
  checkpointMaxFileMegabytes: number;
}

export type EditMode = 'apply' | 'ask';

export type SettingKey = keyof SettingsSnapshot;

export const SETTING_KEYS: readonly SettingKey[] = [
  'model', 'maxTokens', 'maxTurns', 'memoryFolder', 'maxFileBytes', 'quotaBytes', 'redactSecrets',
  'createPolicy', 'promptCaching', 'contextEditing', 'apiBaseUrl', 'checklistGuard', 'compaction', 'compactionTrigger', 'compactionSavePercent', 'edits',
  'editorMaxCharacters', 'commandTimeoutSeconds', 'gitCommit',
  'historyEnabled', 'historyMaxVersionsPerFile', 'historyMaxDays', 'historyMaxMegabytes', 'expiryDays', 'checkpointMaxFileMegabytes',
];

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

/** The package.json name (after `claudeMemory.`) of each snapshot key. */
export const SETTING_NAMES: Readonly<Record<SettingKey, SettingName>> = {
  model: 'model',
  maxTokens: 'maxTokens',
  maxTurns: 'maxTurns',
  memoryFolder: 'memoryFolder',
  maxFileBytes: 'maxFileBytes',
  quotaBytes: 'quotaBytes',
  redactSecrets: 'redactSecrets',
  createPolicy: 'createPolicy',
  promptCaching: 'promptCaching',
  contextEditing: 'contextEditing',
  apiBaseUrl: 'apiBaseUrl',
  checklistGuard: 'checklistGuard',
  compaction: 'compaction',
  compactionTrigger: 'compactionTrigger',
  compactionSavePercent: 'compactionSavePercent',
  edits: 'edits',
  editorMaxCharacters: 'editorMaxCharacters',
  commandTimeoutSeconds: 'commandTimeoutSeconds',
  gitCommit: 'gitCommit',
  historyEnabled: 'history.enabled',
  historyMaxVersionsPerFile: 'history.maxVersionsPerFile',
  historyMaxDays: 'history.maxDays',
  historyMaxMegabytes: 'history.maxMegabytes',
  expiryDays: 'expiry.days',
  checkpointMaxFileMegabytes: 'checkpoints.maxFileMegabytes',
};

/** A host pattern of `sandbox.allowedDomains` / `run --allow-domain`: `example.com`, `*.example.com`, optionally `:port`; IP literals too. */
export function isDomainPattern(text: string): boolean {
  return /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(text);
}

/** The sandbox settings (user settings only; the sandbox reads them through sandboxSettings()). */
export interface SandboxSettings {
  /** `off`: commands run without the OS sandbox (the rules alone decide). */
  mode: 'on' | 'off';
  allowedDomains: string[];
  autoAllow: boolean;
}

/** The sandbox settings from a layered reader (user values only, by SETTING_TRUST). */
export function parseSandboxSettings(read: (name: 'sandbox' | 'sandbox.allowedDomains' | 'sandbox.autoAllow') => SettingLayers): SandboxSettings {
  const mode = trustedValue('sandbox', read('sandbox'));
  const domains = trustedValue('sandbox.allowedDomains', read('sandbox.allowedDomains'));
  return {
    mode: mode === 'off' ? 'off' : 'on',
    allowedDomains: Array.isArray(domains)
      ? domains.filter((d): d is string => typeof d === 'string' && isDomainPattern(d.trim())).map((d) => d.trim().toLowerCase())
      : [],
    autoAllow: trustedValue('sandbox.autoAllow', read('sandbox.autoAllow')) === true,
  };
}

export const DEFAULT_SETTINGS: Readonly<SettingsSnapshot> = {
  ...AGENT_DEFAULTS,
  memoryFolder: DEFAULT_STORE_FOLDER,
  maxFileBytes: DEFAULT_MEMORY_ENGINE_OPTIONS.maxFileBytes,
  quotaBytes: DEFAULT_MEMORY_ENGINE_OPTIONS.quotaBytes,
  redactSecrets: DEFAULT_MEMORY_ENGINE_OPTIONS.redactSecrets,
  createPolicy: DEFAULT_MEMORY_ENGINE_OPTIONS.createPolicy,
  promptCaching: true,
  contextEditing: true,
  apiBaseUrl: undefined,
  checklistGuard: true,
  compaction: true,
  compactionTrigger: COMPACTION_TRIGGER_TOKENS,
  compactionSavePercent: Math.round(DEFAULT_SAVE_THRESHOLD * 100),
  edits: 'apply',
  editorMaxCharacters: DEFAULT_EDITOR_MAX_CHARACTERS,
  commandTimeoutSeconds: DEFAULT_COMMAND_TIMEOUT_MS / 1000,
  gitCommit: true,
  historyEnabled: true,
  historyMaxVersionsPerFile: DEFAULT_HISTORY_RETENTION.maxVersionsPerFile,
  historyMaxDays: DEFAULT_HISTORY_RETENTION.maxDays,
  historyMaxMegabytes: DEFAULT_HISTORY_RETENTION.maxBytes / (1024 * 1024),
  expiryDays: DEFAULT_EXPIRY_DAYS,
  checkpointMaxFileMegabytes: 5,
};

/** The longest expiry window accepted (100 years: "practically never" without being off). */
export const MAX_EXPIRY_DAYS = 36500;

export interface SettingsChange {
  /** The keys whose effective value changed. */
  readonly keys: readonly SettingKey[];
  affects(key: SettingKey): boolean;
}

/** A snapshot value that could not be used as written, for the log. */
export interface SettingProblem {
  key: SettingKey;
  reason: string;
}

/** Reads one raw value (VS Code's merged configuration, or a test's object). */
export type Reader = <T>(key: SettingKey) => T | undefined;

/**
 * Validates raw values; pure so it can be reasoned about apart from VS Code. `userOnly` reads the
 * USER_ONLY_KEYS from the user's settings alone (default: none set).
 */
/** The raw values of `claudeMemory.expiry.days` by layer (VS Code's `inspect`). */
export interface ExpiryDaysLayers {
  /** The user's own value (user settings), undefined when not set. */
  user?: unknown;
  /** Values from workspace files (the .code-workspace, a folder's .vscode/settings.json). */
  workspace?: readonly unknown[];
}

/** Validates raw values; pure so it can be reasoned about apart from VS Code. */
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

/** The engine's `history` option from the settings: false when off. */
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

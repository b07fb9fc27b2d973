/**
 * The `claudeMemory.*` settings' shape: the snapshot's keys, their package.json names, their
 * defaults, and the small types that travel with a snapshot (changes, problems, a reader).
 */
import { AGENT_DEFAULTS } from '../core/agent/defaults';
import { COMPACTION_TRIGGER_TOKENS, DEFAULT_SAVE_THRESHOLD } from '../core/agent/compaction';
import { DEFAULT_HISTORY_RETENTION } from '../core/memory/history/types';
import { DEFAULT_EXPIRY_DAYS } from '../core/memory/history/expiry';
import { DEFAULT_MEMORY_ENGINE_OPTIONS } from '../core/memory/options';
import { DEFAULT_STORE_FOLDER } from '../core/memory/types';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../core/workspace/bashTool';
import { DEFAULT_EDITOR_MAX_CHARACTERS } from '../core/workspace/editor';
import type { SettingName } from './settingTrust';

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


import * as vscode from 'vscode';
import {
  parseSandboxSettings,
  parseSettings,
  SETTING_KEYS,
  SETTING_NAMES,
  trustedValue,
  type Reader,
  type SandboxSettings,
  type SettingKey,
  type SettingLayers,
  type SettingName,
  type SettingProblem,
  type SettingsChange,
  type SettingsSnapshot,
} from './settingsParse';

export * from './settingsParse';

/**
 * The `claudeMemory.*` configuration section. `Settings` reads it for the window (typed, validated,
 * every value through SETTING_TRUST). The user-only lists are read from the user's settings by
 * their own code: `sandboxSettings` below and `commandRules` in platform/workspaceTools.ts; that
 * file also writes them (the user's `commands.allow`/`deny` and `sandbox.allowedDomains`), for the
 * cards and Manage Command Rules (features/chat/manageCommandRules.ts).
 */
export const SETTINGS_SECTION = 'claudeMemory';

/** `claudeMemory.expiry.days`, read by layer (settings key `expiryDays`). */
const EXPIRY_DAYS_KEY = 'expiry.days';

/**
 * Typed, validated settings with a change event that fires only for keys whose effective value
 * changed (VS Code's own event also fires for edits that change nothing).
 */
export class Settings implements vscode.Disposable {
  private snapshot: SettingsSnapshot;
  private readonly emitter = new vscode.EventEmitter<SettingsChange>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly onProblem: (problem: SettingProblem) => void = () => undefined) {
    this.snapshot = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS_SECTION)) this.reload();
    });
  }

  get current(): Readonly<SettingsSnapshot> {
    return this.snapshot;
  }

  get<K extends SettingKey>(key: K): SettingsSnapshot[K] {
    return this.snapshot[key];
  }

  /** Re-reads the configuration; fires onDidChange when an effective value changed. */
  reload(): void {
    const previous = this.snapshot;
    this.snapshot = this.read();
    const keys = SETTING_KEYS.filter((k) => previous[k] !== this.snapshot[k]);
    if (keys.length > 0) this.emitter.fire({ keys, affects: (k) => keys.includes(k) });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  private read(): SettingsSnapshot {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    // Every value through SETTING_TRUST: user-only settings ignore workspace files, tighten-only
    // ones take a workspace value only when it is stricter (settingsParse.ts).
    const get: Reader = (key) => trustedValue(SETTING_NAMES[key], layersOf(config, SETTING_NAMES[key])) as never;
    const baseUrl = config.inspect<string>('apiBaseUrl');
    const expiry = config.inspect<unknown>(EXPIRY_DAYS_KEY);
    const expiryLayers = { user: expiry?.globalValue, workspace: [expiry?.workspaceValue, expiry?.workspaceFolderValue] };
    return parseSettings(get, baseUrl?.globalValue ?? baseUrl?.defaultValue, this.onProblem, expiryLayers, get);
  }
}

/** One setting's values by layer. */
export function layersOf(config: vscode.WorkspaceConfiguration, name: SettingName): SettingLayers {
  const inspected = config.inspect<unknown>(name);
  return {
    default: inspected?.defaultValue,
    user: inspected?.globalValue,
    workspace: [inspected?.workspaceValue, inspected?.workspaceFolderValue],
    merged: config.get<unknown>(name),
  };
}

/**
 * `claudeMemory.sandbox`, `.sandbox.allowedDomains` and `.sandbox.autoAllow`, from the user's
 * settings only (a cloned repository can neither turn the sandbox off nor open the network).
 */
export function sandboxSettings(): SandboxSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return parseSandboxSettings((name) => layersOf(config, name));
}
